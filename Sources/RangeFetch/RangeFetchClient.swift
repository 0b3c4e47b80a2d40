import AsyncHTTPClient
import NIOCore
import NIOSSL
import Synchronization

/// The HTTP client range reads go through, shared by every source with the same timeouts, so connections are reused.
///
/// A client never follows redirects itself: `HTTPByteSource` does, so that `HTTPFetchOptions.maximumRedirects`,
/// the redirect policy and the removal of credentials on a cross-origin redirect apply to each source.
public final class RangeFetchClient: Sendable {
    /// The shared client with the default timeouts (10 s to connect, 30 s between reads).
    public static let shared = RangeFetchClient.shared(connectTimeout: .seconds(10), readTimeout: .seconds(30))

    /// The shared client for these timeouts (whole milliseconds, 1 ms to a day): one per distinct pair, made on first
    /// use and kept for the life of the process.
    public static func shared(connectTimeout: Duration, readTimeout: Duration) -> RangeFetchClient {
        let key = Timeouts(connectMilliseconds: milliseconds(connectTimeout), readMilliseconds: milliseconds(readTimeout))
        return registry.withLock { clients in
            if let client = clients[key] { return client }
            let client = RangeFetchClient(timeouts: key)
            clients[key] = client
            return client
        }
    }

    /// The shared client for the timeouts `options` ask for.
    public static func shared(for options: HTTPFetchOptions) -> RangeFetchClient {
        shared(connectTimeout: options.connectTimeout, readTimeout: options.readTimeout)
    }

    private struct Timeouts: Hashable {
        var connectMilliseconds: Int64
        var readMilliseconds: Int64
    }

    private static let registry = Mutex<[Timeouts: RangeFetchClient]>([:])

    /// `timeout` in whole milliseconds, at least 1 and at most a day's.
    private static func milliseconds(_ timeout: Duration) -> Int64 {
        min(max(timeout.whole(unitsPerSecond: 1000), 1), 86_400_000)
    }

    /// The AsyncHTTPClient underneath; nil when requests go through a transport of the caller's.
    public let httpClient: HTTPClient?
    /// What sends the requests.
    let transport: any HTTPTransport
    /// How long it waits for a connection (nil with a caller's transport: it applies none of its own).
    public let connectTimeout: Duration?
    /// How long it waits for each read from the connection: the response head, then each chunk of the body (nil with
    /// a caller's transport).
    public let readTimeout: Duration?
    let connections: ConnectionCounter
    /// How the origins asked so far answer requests for several ranges: every source of this client learns from
    /// the others' answers.
    public let rangeSupport = OriginRangeSupport()

    /// A client with its own connection pool (shut it down with `shutdown()`). HTTPS origins may speak HTTP/2 (ALPN):
    /// requests to one then go as streams of one connection. `trustedCertificates` are paths of PEM files of
    /// certificates trusted besides the system's (a private certificate authority, a test server's own).
    public convenience init(connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(30),
                            trustedCertificates: [String] = []) {
        self.init(timeouts: Timeouts(connectMilliseconds: Self.milliseconds(connectTimeout),
                                     readMilliseconds: Self.milliseconds(readTimeout)),
                  trustedCertificates: trustedCertificates)
    }

    private init(timeouts: Timeouts, trustedCertificates: [String] = []) {
        let counter = ConnectionCounter()
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(timeouts.connectMilliseconds), read: .milliseconds(timeouts.readMilliseconds)))
        configuration.decompression = .disabled
        configuration.httpVersion = .automatic
        if !trustedCertificates.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = trustedCertificates.map { .file($0) }
            configuration.tlsConfiguration = tls
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration,
                                backgroundActivityLogger: counter.logger())
        httpClient = client
        transport = AsyncHTTPClientTransport(client: client)
        connectTimeout = .milliseconds(timeouts.connectMilliseconds)
        readTimeout = .milliseconds(timeouts.readMilliseconds)
        connections = counter
    }

    /// A client whose requests all go through `transport` (a recorder, a proxy, scripted answers). It opens no
    /// connection of its own, so `connectionsOpened` is nil once a response has come, and applies no timeouts of
    /// its own (the transport's are the ones that hold).
    public init(transport: any HTTPTransport) {
        httpClient = nil
        self.transport = transport
        connectTimeout = nil
        readTimeout = nil
        connections = ConnectionCounter()
    }

    /// Connections opened by this client so far, or nil when requests were sent but the connection pool reported
    /// no connection (the pool's reporting changed): an unknown count, never a silent 0.
    public var connectionsOpened: Int? { connections.opened }

    /// Closes the client's connections. Shared clients need no shutdown.
    public func shutdown() async throws {
        try await httpClient?.shutdown()
    }
}
