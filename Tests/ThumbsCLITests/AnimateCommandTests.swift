import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs

/// `thumbs animate` run as a process: an animated WebP that libwebp reads back, upright, with its stats.
@Suite struct AnimateCommandTests {
    @Test func writesAnUprightAnimatedWebPAndSaysWhatItDecoded() async throws {
        let path = ThumbnailCommandTests.temporaryPath("preview.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try await InfoCommandTests.run(["animate", Fixtures.path("rotate-90"), "--fps", "5", "--end", "2", "-o", path, "--stats"])
        #expect(output.status == 0, "\(output.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        let (frames, _) = try AnimatedWebPDecoder.frames(in: bytes)
        // ffprobe's size turned by its 90° rotation, not enlarged to 320 wide.
        let expectation = try Fixtures.expectation("rotate-90")
        #expect(frames.first?.image.width == expectation.height && frames.first?.image.height == expectation.width)
        let stats = try #require(output.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        #expect(json["frames"] as? Double == Double(frames.count))
        #expect(frames.count == 10)
        #expect((json["samplesDecoded"] as? Double ?? 0) >= Double(frames.count))
        #expect(json["samplesFetched"] as? Double == json["samplesDecoded"] as? Double)
        #expect(json["durationMs"] as? Double == 2000)
    }

    /// A playlist is animated as a stream, by its name or, named otherwise, by its content: FFmpeg's fMP4 cut of
    /// h264-bframes from 0.5 s to 2.5 s at 5 fps crosses its first three segments (0.96 s each), 10 frames, the same
    /// file either way; the stats count the segments read.
    @Test func aPlaylistIsAnimatedAsAStream() async throws {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/ffmpeg-hls-fmp4-h264-bframes")
        let copy = URL(fileURLWithPath: ThumbnailCommandTests.temporaryPath("stream"))
        try FileManager.default.copyItem(at: folder, to: copy)
        let path = ThumbnailCommandTests.temporaryPath("preview.webp"), again = ThumbnailCommandTests.temporaryPath("again.webp")
        defer { for file in [copy.path, path, again] { try? FileManager.default.removeItem(atPath: file) } }
        try FileManager.default.moveItem(at: copy.appendingPathComponent("index.m3u8"), to: copy.appendingPathComponent("index"))
        let arguments = ["--start", "0.5", "--end", "2.5", "--fps", "5", "--lossless", "--stats"]
        let named = try await InfoCommandTests.run(["animate", folder.appendingPathComponent("index.m3u8").path, "-o", path] + arguments)
        #expect(named.status == 0, "\(named.stderr)")
        let told = try await InfoCommandTests.run(["animate", copy.appendingPathComponent("index").path, "-o", again] + arguments)
        #expect(told.status == 0, "\(told.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: again))))
        let (frames, _) = try AnimatedWebPDecoder.frames(in: bytes)
        #expect(frames.count == 10)
        let stats = try #require(named.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        #expect(json["segments"] as? Double == 3)
        #expect(json["durationMs"] as? Double == 2000)
    }

    /// The first frame (the keyframe at 0 s) read back is the picture `thumbs thumbnail` writes of that time:
    /// identical when lossless, at least 30 dB when lossy.
    @Test(arguments: [["--lossless"], ["--quality", "80"]])
    func theFirstFrameIsThePNGPathsPicture(_ extra: [String]) async throws {
        let path = ThumbnailCommandTests.temporaryPath("preview.webp"), png = ThumbnailCommandTests.temporaryPath("first.png")
        defer { for file in [path, png] { try? FileManager.default.removeItem(atPath: file) } }
        let animated = try await InfoCommandTests.run(["animate", Fixtures.path("rotate-90"), "--fps", "5", "--end", "1", "-o", path] + extra)
        #expect(animated.status == 0, "\(animated.stderr)")
        let still = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--time", "0", "--exact", "--max-size", "320", "-o", png])
        #expect(still.status == 0, "\(still.stderr)")
        let reference = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
        let (frames, _) = try AnimatedWebPDecoder.frames(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let first = try #require(frames.first).image
        #expect(first.width == reference.width && first.height == reference.height)
        let rgb = stride(from: 0, to: first.pixels.count, by: 4).flatMap { first.pixels[$0..<$0 + 3] }
        if extra == ["--lossless"] {
            #expect(rgb == reference.pixels)
        } else {
            #expect(psnr(rgb, reference.pixels) >= 30, "\(psnr(rgb, reference.pixels)) dB")
        }
    }

    /// Without --width a picture wider than 320 is made 320 wide, its height following its shape (ffprobe's 16:9).
    @Test func theDefaultWidthIs320() async throws {
        let path = ThumbnailCommandTests.temporaryPath("wide.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try await InfoCommandTests.run(["animate", Fixtures.path("h264-1080p-crop"), "--fps", "10", "-o", path])
        #expect(output.status == 0, "\(output.stderr)")
        let (frames, _) = try AnimatedWebPDecoder.frames(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let expectation = try Fixtures.expectation("h264-1080p-crop")
        let width = try #require(expectation.width), height = try #require(expectation.height)
        #expect(frames.first?.image.width == 320)
        #expect(frames.first?.image.height == Int((320 * Double(height) / Double(width)).rounded()))
    }

    /// Past the ceilings, and times a `Duration` cannot hold (which trapped when made into one before validation).
    @Test(arguments: [["--fps", "60"], ["--start", "3", "--end", "14"], ["--width", "0"], ["--start", "-1"],
                      ["--start", "1e300"], ["--end", "inf"], ["--end", "nan"]])
    func optionsPastTheCeilingsAreUsageErrors(_ arguments: [String]) async throws {
        let output = try await InfoCommandTests.run(["animate", Fixtures.path("rotate-90"), "-o", ThumbnailCommandTests.temporaryPath("x.webp")] + arguments)
        #expect(output.status == 64, "\(output.stderr)")
    }
}
