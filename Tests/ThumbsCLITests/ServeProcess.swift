import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RangeFetchTestSupport

/// A `thumbs serve` process on a free loopback port, started with the given options and ready (its /healthz
/// answered) when made; killed when dropped if still running.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `port` and `process` are set in init and only read after; Process's own calls are thread-safe.
    let port: Int
    let process = Process()

    /// An answer to `get`.
    struct Answer {
        var status: Int
        var body: Data
        var cacheStatus: String?
        var contentType: String? = nil
    }

    init(_ options: [String]) async throws {
        port = try Nginx.freePort()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["serve", "--port", String(port)] + options
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try OrphanGuard.watch(process.processIdentifier)
        // Up to 30 s: a debug build starts in well under one, but not always beside a full parallel test run.
        for _ in 0..<300 {
            if await Self.get(url("/healthz"))?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGKILL)
        throw POSIXError(.ETIMEDOUT)
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// The URL of `pathAndQuery` on this server.
    func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }

    /// Sends SIGTERM and waits up to 30 s for the process to end (it finishes what is in flight first); whether it
    /// exited 0.
    func terminate() async throws -> Bool {
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<600 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// GETs `url` (with `accept` as its Accept field, when given); nil when no answer came (refused, reset, timed out).
    static func get(_ url: String, accept: String? = nil) async -> Answer? {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 60
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        guard let (data, response) = try? await URLSession.shared.data(for: request), let http = response as? HTTPURLResponse else {
            return nil
        }
        return Answer(status: http.statusCode, body: data, cacheStatus: http.value(forHTTPHeaderField: "X-Cache-Status"),
                      contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }
}
