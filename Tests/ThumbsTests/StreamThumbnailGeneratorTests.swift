import ByteSources
import FrameDecode
import Foundation
import MP4BoxTestSupport
import StreamManifests
import Testing
import Thumbs

/// Thumbnails of the real streams in Fixtures/streams, read from disk, against ffmpeg's pictures of the same keyframes
/// (Fixtures/streams/make-expectations.py, `references`).
@Suite struct StreamThumbnailGeneratorTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")

    struct Reference: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var seconds: Double
        var ffmpegTime: String
        var offset: Double
        var size: [Int]
        var testDescription: String { name }
    }

    struct Expectations: Decodable {
        var references: [Reference]
    }

    static let references: [Reference] = {
        do {
            let data = try Data(contentsOf: folder.appendingPathComponent("expectations.json"))
            return try JSONDecoder().decode(Expectations.self, from: data).references
        } catch {
            fatalError("Fixtures/streams/expectations.json: \(error)")
        }
    }()

    /// The manifest a reference's picture is of, where ffmpeg read the media instead (it refuses shaka 6339's manifest,
    /// reads shaka's SegmentBase periods as one of length 0, and shows livesim2's 8 s picture at 4 s).
    static let manifests = [
        "shaka6339-19.9s": "shaka-6339/master.mpd",
        "multitype-period2": "shaka-dash-multitype-variant/dash.mpd",
        "livesim2-4s": "livesim2-testpic-alt-seg-dur-stl/Manifest.mpd",
    ]

    static func generator(_ manifest: String, maximumSize: Int = 160) -> StreamThumbnailGenerator {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: maximumSize, height: maximumSize)
        return StreamThumbnailGenerator(input: FileInput(path: folder.appendingPathComponent(manifest).path), options: options)
    }

    @Test(arguments: references)
    func keyframeMatchesFFmpeg(_ reference: Reference) async throws {
        let manifest = Self.manifests[reference.name] ?? reference.source
        // The time asked for is on the stream: a file ffmpeg read starts at the offset.
        let made = try await Self.generator(manifest).image(at: .seconds(reference.seconds + reference.offset))
        let image = made.thumbnail.image
        let path = Self.folder.appendingPathComponent("references/\(reference.name).png").path
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect([image.width, image.height] == reference.size)
        #expect([expected.width, expected.height] == reference.size)
        guard image.width == expected.width, image.height == expected.height else { return }
        let quality = psnr(image.packed().pixels, expected.packed().pixels)
        #expect(quality >= 35, "\(reference.name): psnr \(quality) dB")
        // The keyframe's time: ffmpeg's (with -copyts) and the offset; shaka 6339's SegmentList gives each segment
        // 9.982 s where its frames take 9.979 s, so its third segment starts at 19.964 s on the stream and its
        // keyframe at 19.958 s in the file.
        let ffmpegTime = try #require(Double(reference.ffmpegTime)) + reference.offset
        #expect(abs(made.thumbnail.actualTime - ffmpegTime) < 0.01, "\(reference.name): \(made.thumbnail.actualTime) s")
        #expect(made.thumbnail.isSyncSample)
    }

    /// What a thumbnail reads: the playlists, the init segment, and the segment's head (16 KiB: its moof and, in
    /// this small segment, the whole keyframe).
    @Test func readsThePlaylistsTheInitSegmentAndOneSegment() async throws {
        let made = try await Self.generator("media3-cmaf-multi-segment/playlist.m3u8").image(at: .seconds(1))
        let files = ["playlist.m3u8", "stream_1.m3u8", "video_init.mp4", made.segment.resource.url.split(separator: "/").last.map(String.init) ?? ""]
        let sizes = try files.map { name in
            try #require(try FileManager.default.attributesOfItem(atPath: Self.folder.appendingPathComponent("media3-cmaf-multi-segment/\(name)").path)[.size] as? Int)
        }
        #expect(made.thumbnail.requests == 4)
        #expect(made.thumbnail.bytesFetched <= UInt64(sizes.reduce(0, +)))
        #expect(made.segment.resource.url.hasSuffix("video_5.m4s"))
        #expect(made.rendition.width == 640)
    }

    /// At 0.95 s the segment playing started with its keyframe at 0.767 s; the next one starts at 1.0 s with a
    /// keyframe (ffprobe lists the stream's I frames at 0.767 and 1.0 s): the nearest is the next segment's. Exact,
    /// the frame on screen at 0.95 s is the 30 fps frame from 0.933 s, decoded from the segment playing.
    @Test func theNearestKeyframeMayStartTheNextSegment() async throws {
        let nearest = try await Self.generator("media3-cmaf-multi-segment/manifest.mpd").image(at: .seconds(0.95))
        #expect(nearest.segment.resource.url.hasSuffix("video_5.m4s"))
        #expect(abs(nearest.thumbnail.actualTime - 1.0) < 0.001)
        var options = ThumbnailOptions()
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        let path = Self.folder.appendingPathComponent("media3-cmaf-multi-segment/manifest.mpd").path
        let exact = try await StreamThumbnailGenerator(input: FileInput(path: path), options: options).image(at: .seconds(0.95))
        #expect(exact.segment.resource.url.hasSuffix("video_4.m4s"))
        #expect(abs(exact.thumbnail.actualTime - 0.9333) < 0.001)
        #expect(!exact.thumbnail.isSyncSample)
    }

    @Test func aStreamFrameNumberIsRefused() async throws {
        await #expect(throws: ThumbnailError.self) {
            try await Self.generator("media3-cmaf-multi-segment/manifest.mpd").image(at: .frame(3))
        }
    }

    /// Media3's emsg stream is H.264 High 4:4:4, which openh264 does not decode: a typed error, not a picture.
    @Test func anUndecodableRenditionGivesTheDecoderError() async throws {
        await #expect(throws: DecodeError.self) {
            try await Self.generator("media3-dash-multi-segment-with-emsg1/manifest.mpd").image(at: .seconds(0.6))
        }
    }
}
