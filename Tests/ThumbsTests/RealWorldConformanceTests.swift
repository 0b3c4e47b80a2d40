import Foundation
import Matroska
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Every file of the real-world corpus (`Fixtures/real-world`) and of the codec corpus (`Fixtures/codecs`) gives
/// ffmpeg's picture, or the typed error its `outcomes.json` expects: never a crash, a hang, a wrong frame or a wrong
/// size.
///
/// Serialized: decoding runs on the cooperative thread pool (one thread per core), and 108 files decoded at
/// once would starve the other suites' timers (a 0.3 s deadline was seen to fire after 10 s).
@Suite(.serialized) struct RealWorldConformanceTests {
    /// The lowest PSNR accepted against ffmpeg's picture, in dB (as for our own fixtures).
    static let threshold = 35.0
    /// For an interlaced file (`outcomes.json` says so): its picture is deinterlaced, ffmpeg's is its frame as decoded.
    static let interlacedThreshold = 30.0

    /// The options every picture is asked with: the exact frame, fitted inside 160x160 like the references.
    static var options: ThumbnailOptions {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        return options
    }

    @Test func theCorporaAreThere() {
        #expect(MediaCorpus.realWorld.names.count >= 60, "\(MediaCorpus.realWorld.names.count) files in Fixtures/real-world/media")
        #expect(MediaCorpus.codecs.names.count >= 20, "\(MediaCorpus.codecs.names.count) files in Fixtures/codecs/media")
        for corpus in [MediaCorpus.realWorld, MediaCorpus.codecs] {
            for name in corpus.outcomes.keys {
                #expect(corpus.names.contains(name), "\(corpus)/outcomes.json names \(name), which is not in media/")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: MediaCorpus.allFiles)
    func givesTheExpectedOutcome(_ file: MediaCorpus.File) async throws {
        let (corpus, name) = (file.corpus, file.name)
        let outcome = corpus.outcomes[name]
        let expectation = try corpus.expectation(name)
        // Through the one media rule, as the command line reads a file: an MP4 or QuickTime movie, or Matroska.
        let input = FileInput(path: file.path)
        if let expected = outcome?.error {
            do {
                let thumbnail = try await Media.withMedia(of: input) { media in
                    try await ThumbnailGenerator(media: media, options: Self.options).image(at: .seconds(0))
                }
                Issue.record("\(name): a \(thumbnail.image.width)x\(thumbnail.image.height) thumbnail, but outcomes.json expects \(expected.type).\(expected.code) (\(outcome?.why ?? ""))")
            } catch {
                let (type, code) = Self.typeAndCode(of: error)
                #expect(type == expected.type && code == expected.code,
                        "\(name): \(type).\(code) (\(error)), expected \(expected.type).\(expected.code)")
            }
            return
        }
        let video = try #require(expectation.video, "\(name): ffprobe sees no video and outcomes.json expects no error")
        let roles = try #require(video.roles, "\(name): ffmpeg decodes no frame and outcomes.json expects no error")
        for role in roles {
            let thumbnail = try await Media.withMedia(of: input) { media in
                try await ThumbnailGenerator(media: media, options: Self.options).image(at: .seconds(role.requestSeconds))
            }
            // The picture returned is the one whose time is reported: ffmpeg's frame starts exactly there.
            #expect(abs(thumbnail.actualTime - role.ptsSeconds) < 0.0005,
                    "\(name) \(role.role): actual time \(thumbnail.actualTime), ffmpeg's frame starts at \(role.ptsSeconds)")
            let reference = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath:
                corpus.referencePath(name, role: role.role)))))
            let image = thumbnail.image
            if let directory = ProcessInfo.processInfo.environment["THUMBS_DUMP_DIR"] {
                let url = URL(fileURLWithPath: directory).appendingPathComponent("\(name).\(role.role).png")
                try Data(try PNGEncoder().encode(image)).write(to: url)
            }
            #expect(image.width == reference.width && image.height == reference.height,
                    "\(name) \(role.role): \(image.width)x\(image.height), ffmpeg \(reference.width)x\(reference.height)")
            guard image.width == reference.width, image.height == reference.height else { continue }
            let quality = psnr(image.colourPixels, reference.packed().pixels)
            let threshold = outcome?.interlaced == true ? Self.interlacedThreshold : Self.threshold
            #expect(quality >= threshold, "\(name) \(role.role): psnr \(quality) dB")
        }
    }

    /// The error's type name and code, as outcomes.json spells them.
    static func typeAndCode(of error: any Error) -> (String, String) {
        switch error {
        case let error as DecodeError: ("DecodeError", error.code.rawValue)
        case let error as ThumbnailError: ("ThumbnailError", error.code.rawValue)
        case let error as MP4Error: ("MP4Error", error.code.rawValue)
        case let error as MatroskaError: ("MatroskaError", error.code.rawValue)
        default: (String(describing: type(of: error)), "\(error)")
        }
    }
}
