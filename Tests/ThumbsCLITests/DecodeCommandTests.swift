import Foundation
import MP4BoxTestSupport
import Testing

/// `thumbs decode` run as a process: exit codes after sysexits.h.
@Suite struct DecodeCommandTests {
    @Test func unwritableOutputExitsWithAnIOError() async throws {
        let output = try await InfoCommandTests.run(["decode", Fixtures.path("h264-faststart"), "-o", "/nonexistent-directory/frame.yuv"])
        #expect(output.status == 74)
        #expect(output.stderr.contains("/nonexistent-directory/frame.yuv"))
    }

    @Test func notAMovieExitsWithBadInput() async throws {
        let output = try await InfoCommandTests.run(["decode", Fixtures.directory.appendingPathComponent("README.md").path,
                                               "-o", FileManager.default.temporaryDirectory.appendingPathComponent("unused.yuv").path])
        #expect(output.status == 65)
    }

    /// Without `--time`, decode takes the frame `thumbs thumbnail` takes (the poster time, else 10 % of the duration),
    /// on a movie whose 10 % is not its middle's keyframe.
    @Test func withoutATimeItDecodesTheFrameTheThumbnailShows() async throws {
        let movie = Fixtures.path("h264-bframes")
        let decoded = try await InfoCommandTests.run(["decode", movie, "-o", ThumbnailCommandTests.temporaryPath("x.yuv")])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let thumbnail = try await InfoCommandTests.run(["thumbnail", movie, "-o", ThumbnailCommandTests.temporaryPath("x.png"), "--stats"])
        let stats = try #require(thumbnail.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        let actual = try #require(json["actualTime"] as? Double)
        #expect(decoded.stderr.contains("(\(actual) s)"), "decode: \(decoded.stderr), thumbnail at \(actual) s")
    }

    @Test(arguments: [["--time", "-5"], ["--time=-5"]])
    func aNegativeTimeIsRefusedClearly(_ time: [String]) async throws {
        let output = try await InfoCommandTests.run(["decode", Fixtures.path("rotate-90"), "-o", ThumbnailCommandTests.temporaryPath("x.yuv")] + time)
        #expect(output.status == 64)
        #expect(output.stderr.contains("--time must be a non-negative number of seconds"), "\(output.stderr)")
    }
}
