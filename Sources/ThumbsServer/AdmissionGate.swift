import Synchronization

/// Bounds the requests that need work (a fetch and a decode, not an answer from a cache): at most
/// `decodes + queue` at once; one more is turned away at once with 503, so a burst waits in clients and caches
/// instead of in this process's memory.
final class AdmissionGate: Sendable {
    private let capacity: Int
    private let decodes: Int
    private let admitted = Mutex(0)

    /// A gate for `decodes` decodes at once and `queue` waiting for one.
    init(decodes: Int, queue: Int) {
        self.decodes = max(1, decodes)
        capacity = self.decodes + max(0, queue)
    }

    /// Admits one request, or nil when `capacity` are in; the caller calls `leave()` when its work is done.
    func enter() -> Bool {
        admitted.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    /// Ends one admitted request's work.
    func leave() {
        admitted.withLock { $0 -= 1 }
    }

    /// Requests admitted beyond the decodes: those waiting for one.
    var queueLength: Int { admitted.withLock { max(0, $0 - decodes) } }

    /// Requests admitted.
    var admittedCount: Int { admitted.withLock { $0 } }
}
