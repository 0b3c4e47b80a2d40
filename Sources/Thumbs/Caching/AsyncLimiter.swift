/// At most `limit` operations at once; the rest wait in order. Waiting honours task cancellation.
public actor AsyncLimiter {
    /// How many may run at once.
    public let limit: Int
    private var running = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    /// A limiter of `limit` (at least 1).
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a place is free.
    /// - Throws: `CancellationError` when the task is cancelled while waiting; whatever `body` throws.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    /// Runs `body` once a place is free in each of `limiters`, taken in the order given and given back in reverse.
    /// Callers that share limiters should list them in one order, so that none holds a place another waits for.
    /// - Throws: `CancellationError` when the task is cancelled while waiting; whatever `body` throws.
    public static func run<T: Sendable>(within limiters: [AsyncLimiter], _ body: @Sendable () async throws -> T) async throws -> T {
        guard let first = limiters.first else { return try await body() }
        return try await first.run { try await run(within: Array(limiters.dropFirst()), body) }
    }

    /// Operations running now.
    public var active: Int { running }
    /// Callers waiting for a place.
    public var waitingCount: Int { waiters.count }

    /// Waits for a place; pair with `release()`.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    public func acquire() async throws {
        if running < limit {
            running += 1
            return
        }
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Gives a place back (to the next waiter, if any).
    public func release() {
        if waiters.isEmpty {
            running -= 1
        } else {
            waiters.removeFirst().continuation.resume()  // the place passes straight to the next waiter
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
