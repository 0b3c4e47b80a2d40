import Logging
import Synchronization

/// Counts the connections an `HTTPClient` opens, from its connection pool's background log.
///
/// AsyncHTTPClient exposes no connection statistics; its pool tags every log event about a connection with the
/// metadata `ahc-connection-id`. The counter keeps the distinct identifiers it sees (a set of small integers),
/// whatever the messages say. Requests are counted too: once a request has gone out and no connection was ever
/// reported, the count is unknown (nil), so a change in the pool's logging shows instead of reading as 0.
final class ConnectionCounter: Sendable {
    private let state = Mutex((connections: Set<String>(), requests: 0))

    /// The connections opened so far; nil when requests went out but none was reported.
    var opened: Int? {
        state.withLock { $0.requests > 0 && $0.connections.isEmpty ? nil : $0.connections.count }
    }

    func record(connection id: String) {
        _ = state.withLock { $0.connections.insert(id) }
    }

    /// Notes a response received (so a connection must have been opened for it).
    func noteResponse() {
        state.withLock { $0.requests += 1 }
    }

    /// A logger that feeds this counter.
    func logger() -> Logger {
        Logger(label: "thumbs.rangefetch.connections") { _ in ConnectionCountingLogHandler(counter: self) }
    }
}

/// The log handler behind `ConnectionCounter.logger()`.
struct ConnectionCountingLogHandler: LogHandler {
    static let connectionKey = "ahc-connection-id"
    let counter: ConnectionCounter
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if let id = event.metadata?[Self.connectionKey] ?? metadata[Self.connectionKey] {
            counter.record(connection: id.description)
        }
    }
}
