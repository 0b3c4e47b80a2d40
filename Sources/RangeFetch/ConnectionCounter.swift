import Logging
import Synchronization

/// Counts the connections an `HTTPClient` opens, from its connection pool's trace log.
///
/// AsyncHTTPClient exposes no connection statistics; its pool logs
/// "Opening fresh connection" at trace level to the client's background logger,
/// and this handler counts those lines (and drops every other message).
final class ConnectionCounter: Sendable {
    private let count = Mutex(0)

    /// The connections opened so far.
    var opened: Int { count.withLock { $0 } }

    func record() {
        count.withLock { $0 += 1 }
    }

    /// A logger that feeds this counter.
    func logger() -> Logger {
        Logger(label: "thumbs.rangefetch.connections") { _ in ConnectionCountingLogHandler(counter: self) }
    }
}

/// The log handler behind `ConnectionCounter.logger()`.
struct ConnectionCountingLogHandler: LogHandler {
    let counter: ConnectionCounter
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.message.description == "Opening fresh connection" { counter.record() }
    }
}
