import HummingbirdCore
import NIOCore
import Synchronization

/// At most `limit` client connections open at once: one past it is closed as soon as it is accepted, before a byte
/// of it is read, so a flood of idle or slow connections costs a bounded number of descriptors and buffers. (A
/// proxy in front retries a closed connection on another replica.)
final class OpenConnectionLimit: Sendable {
    /// Most connections open at once.
    let limit: Int
    private let open = Atomic<Int>(0)
    private let metrics: ServerMetrics

    /// A limit of `limit` (at least 1) connections, counted in `metrics`.
    init(limit: Int, metrics: ServerMetrics) {
        self.limit = max(1, limit)
        self.metrics = metrics
    }

    /// A handler for one new connection's pipeline, which counts it while it is open or closes it at once.
    func makeHandler() -> any RemovableChannelHandler { Handler(limit: self) }

    /// Counts `1` more open connection if there is room; false when the limit is reached (nothing is counted).
    fileprivate func admit() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged {
                metrics.recordConnections(open: current + 1)
                return true
            }
            current = original
        }
        metrics.recordConnectionRefused(open: current)
        return false
    }

    fileprivate func release() {
        let now = open.subtract(1, ordering: .relaxed).newValue
        metrics.recordConnections(open: now)
    }

    /// Passes everything through; counts the connection from when it is added to the pipeline until it is removed.
    private final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let limit: OpenConnectionLimit
        private var counted = false

        init(limit: OpenConnectionLimit) { self.limit = limit }

        func handlerAdded(context: ChannelHandlerContext) {
            counted = limit.admit()
            if !counted { context.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if counted { limit.release() }
            counted = false
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
        }
    }
}
