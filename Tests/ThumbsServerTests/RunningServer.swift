import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import RangeFetchTestSupport
import ServiceLifecycle
import ThumbsServer

/// A `ThumbsServer` listening on a free loopback port for the length of a test, and a client to ask it.
struct RunningServer {
    let base: String
    /// The port it listens on.
    var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }
    let server: ThumbsServer

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        /// The JSON error body's fields.
        var error: [String: String] { (try? JSONDecoder().decode([String: String].self, from: Data(body))) ?? [:] }
    }

    /// Runs `body` with a server of `configuration`, then stops it.
    static func with<T: Sendable>(_ configuration: ServerConfiguration,
                                  _ body: @Sendable (RunningServer) async throws -> T) async throws -> T {
        var configuration = configuration
        configuration.port = 0
        let server = try ThumbsServer(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "thumbs-test")
        logger.logLevel = .warning
        let application = server.makeApplication(logger: logger) { port in continuation.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await services.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            // Stopped as a signal stops it: no new connections, the requests in flight finished.
            defer { Task { await services.triggerGracefulShutdown() } }
            return try await body(RunningServer(base: "http://127.0.0.1:\(port)", server: server))
        }
    }

    /// Runs `body` with the fault-injecting origin of `ThumbnailRouteTests.origin(_:)` (with `faults`) and a server
    /// allowed to read its `/media/`, changed by `configure`; stops both after.
    static func withOrigin<T: Sendable>(_ faults: TestHTTPServer.Faults = TestHTTPServer.Faults(),
                                        configure: (inout ServerConfiguration) -> Void = { _ in },
                                        _ body: @Sendable (RunningServer, TestHTTPServer) async throws -> T) async throws -> T {
        let origin = try await ThumbnailRouteTests.origin(faults)
        let result: Result<T, any Error>
        do {
            var configuration = try ThumbnailRouteTests.configuration(allowing: origin)
            configure(&configuration)
            result = .success(try await with(configuration) { server in try await body(server, origin) })
        } catch {
            result = .failure(error)
        }
        try? await origin.shutdown()
        return try result.get()
    }

    /// GETs `pathAndQuery` with `headers`.
    func get(_ pathAndQuery: String, headers: [(String, String)] = [], timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        var request = HTTPClientRequest(url: base + pathAndQuery)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name.lowercased()] = header.value }
        return Answer(status: Int(response.status.code), headers: fields, body: Array(buffer: body))
    }
}
