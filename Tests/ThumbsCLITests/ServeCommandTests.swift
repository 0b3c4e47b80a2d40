import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `thumbs serve` run as a process: it serves, refuses a configuration with nothing to serve, and stops cleanly on
/// SIGTERM (the graceful shutdown of swift-service-lifecycle).
@Suite struct ServeCommandTests {
    static func get(_ url: String) async -> (status: Int, body: Data)? {
        guard let (data, response) = try? await URLSession.shared.data(from: URL(string: url)!),
              let http = response as? HTTPURLResponse else { return nil }
        return (http.statusCode, data)
    }

    @Test func itServesAThumbnailFromTheMediaRootAndStopsOnSIGTERM() async throws {
        let port = try Nginx.freePort()
        let root = Fixtures.path("h264-faststart").components(separatedBy: "/").dropLast().joined(separator: "/")
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["serve", "--port", String(port), "--media-root", root]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var health: (status: Int, body: Data)?
        for _ in 0..<100 where health == nil {
            try await Task.sleep(for: .milliseconds(100))
            health = await Self.get("http://127.0.0.1:\(port)/healthz")
        }
        #expect(health?.status == 200)
        let thumbnail = await Self.get("http://127.0.0.1:\(port)/thumbnail.png?path=h264-faststart.mp4&width=64")
        #expect(thumbnail?.status == 200)
        #expect(thumbnail?.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// SIGTERM while a thumbnail is being made: no new connection is accepted, the request in flight is answered, then
    /// the process exits 0.
    @Test func sigtermFinishesTheRequestInFlight() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 1.5
        let origin = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
        defer { Task { try? await origin.shutdown() } }
        let port = try Nginx.freePort()
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["serve", "--port", String(port), "--allow-origin", origin.url("/")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var health: (status: Int, body: Data)?
        for _ in 0..<100 where health == nil {
            try await Task.sleep(for: .milliseconds(100))
            health = await Self.get("http://127.0.0.1:\(port)/healthz")
        }
        let url = "http://127.0.0.1:\(port)/thumbnail.png?url=" + origin.url("/a.mp4").queryEncoded
        async let inFlight = Self.get(url)
        try await Task.sleep(for: .milliseconds(400))
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(await Self.get("http://127.0.0.1:\(port)/healthz") == nil, "a new connection was accepted after SIGTERM")
        let answer = await inFlight
        #expect(answer?.status == 200)
        #expect(answer?.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func withNothingToServeItDoesNotStart() throws {
        let output = try InfoCommandTests.run(["serve", "--port", "0"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--allow-origin"))
        let badOrigin = try InfoCommandTests.run(["serve", "--port", "0", "--allow-origin", "ftp://origin.example/"])
        #expect(badOrigin.status != 0)
        #expect(badOrigin.stderr.contains("ftp://origin.example/"))
    }
}
