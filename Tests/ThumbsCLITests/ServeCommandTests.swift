import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `thumbs serve` run as a process: it serves, refuses a configuration with nothing to serve, and stops cleanly on
/// SIGTERM (the graceful shutdown of swift-service-lifecycle).
@Suite struct ServeCommandTests {
    @Test func itServesAThumbnailFromTheMediaRootAndStopsOnSIGTERM() async throws {
        let root = Fixtures.path("h264-faststart").components(separatedBy: "/").dropLast().joined(separator: "/")
        let server = try await ServeProcess(["--media-root", root])
        let thumbnail = await ServeProcess.get(server.url("/thumbnail.png?path=h264-faststart.mp4&width=64"))
        #expect(thumbnail?.status == 200)
        #expect(thumbnail?.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(try await server.terminate())
    }

    /// SIGTERM while a thumbnail is being made: no new connection is accepted, the request in flight is answered, then
    /// the process exits 0.
    @Test func sigtermFinishesTheRequestInFlight() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 4
        let origin = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
        let server = try await ServeProcess(["--allow-origin", origin.url("/")])
        async let inFlight = ServeProcess.get(server.url("/thumbnail.png?url=" + origin.url("/a.mp4").queryEncoded))
        // SIGTERM once the request is at work (the origin has its first request), 4 s before the origin answers it.
        for _ in 0..<1000 where origin.requestCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(origin.requestCount > 0, "the request never reached the origin")
        async let stopped = server.terminate()
        // Connections are refused soon after, while the request is still in flight (its origin answers 4 s later).
        var refused = false
        for _ in 0..<30 where !refused {
            try await Task.sleep(for: .milliseconds(100))
            refused = await ServeProcess.get(server.url("/healthz")) == nil
        }
        #expect(refused, "new connections were still accepted 3 s after SIGTERM")
        let answer = await inFlight
        #expect(answer?.status == 200)
        #expect(answer?.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(try await stopped)
        try await origin.shutdown()
    }

    @Test func withNothingToServeItDoesNotStart() async throws {
        let output = try await InfoCommandTests.run(["serve", "--port", "0"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--allow-origin"))
        let badOrigin = try await InfoCommandTests.run(["serve", "--port", "0", "--allow-origin", "ftp://origin.example/"])
        #expect(badOrigin.status != 0)
        #expect(badOrigin.stderr.contains("ftp://origin.example/"))
    }

    /// A signing key file that cannot be read is an I/O failure named by its option (exit 74), not an error thrown out
    /// of the command (exit 1).
    @Test func anUnreadableSigningKeyIsAnIOError() async throws {
        let output = try await InfoCommandTests.run(["serve", "--port", "0", "--media-root", NSTemporaryDirectory(),
                                               "--signing-key-file", "/nonexistent/key"])
        #expect(output.status == 74, "\(output.stderr)")
        #expect(output.stderr == "thumbs: --signing-key-file /nonexistent/key: No such file or directory\n")
    }
}
