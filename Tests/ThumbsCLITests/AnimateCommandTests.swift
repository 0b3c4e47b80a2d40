import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs

/// `thumbs animate` run as a process: an animated WebP that libwebp reads back, upright, with its stats.
@Suite struct AnimateCommandTests {
    @Test func writesAnUprightAnimatedWebPAndSaysWhatItDecoded() throws {
        let path = ThumbnailCommandTests.temporaryPath("preview.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try InfoCommandTests.run(["animate", Fixtures.path("rotate-90"), "--fps", "5", "--end", "2", "-o", path, "--stats"])
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

    @Test(arguments: [["--fps", "60"], ["--start", "3", "--end", "14"], ["--width", "0"]])
    func optionsPastTheCeilingsAreUsageErrors(_ arguments: [String]) throws {
        let output = try InfoCommandTests.run(["animate", Fixtures.path("rotate-90"), "-o", ThumbnailCommandTests.temporaryPath("x.webp")] + arguments)
        #expect(output.status == 64, "\(output.stderr)")
    }
}
