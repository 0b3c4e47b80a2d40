import Foundation
import MP4BoxTestSupport
import Testing

/// `thumbs decode` run as a process: exit codes after sysexits.h.
@Suite struct DecodeCommandTests {
    @Test func unwritableOutputExitsWithAnIOError() throws {
        let output = try InfoCommandTests.run(["decode", Fixtures.path("h264-faststart"), "-o", "/nonexistent-directory/frame.yuv"])
        #expect(output.status == 74)
        #expect(output.stderr.contains("/nonexistent-directory/frame.yuv"))
    }

    @Test func notAMovieExitsWithBadInput() throws {
        let output = try InfoCommandTests.run(["decode", Fixtures.directory.appendingPathComponent("README.md").path,
                                               "-o", FileManager.default.temporaryDirectory.appendingPathComponent("unused.yuv").path])
        #expect(output.status == 65)
    }
}
