import AsyncHTTPClient
import NIOCore

/// The HTTP client range reads go through: one per process, shared by every source, so connections are reused.
public final class RangeFetchClient: Sendable {
    /// The shared client: keep-alive connections, HTTP/2 when TLS offers it, 5 redirects, 10 s connect and 30 s read timeouts.
    public static let shared = RangeFetchClient()

    /// The AsyncHTTPClient underneath.
    public let httpClient: HTTPClient
    let connections: ConnectionCounter

    /// A client with its own connection pool.
    public init(connectTimeout: Double = 10, readTimeout: Double = 30, maximumRedirects: Int = 5) {
        let counter = ConnectionCounter()
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: maximumRedirects, allowCycles: false),
            timeout: .init(connect: .milliseconds(Int64(connectTimeout * 1000)), read: .milliseconds(Int64(readTimeout * 1000))))
        configuration.decompression = .disabled
        configuration.httpVersion = .automatic
        httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration,
                                backgroundActivityLogger: counter.logger())
        connections = counter
    }

    /// Connections opened by this client so far.
    public var connectionsOpened: Int { connections.opened }

    /// Closes the client's connections. The shared client needs no shutdown.
    public func shutdown() async throws {
        try await httpClient.shutdown()
    }
}
