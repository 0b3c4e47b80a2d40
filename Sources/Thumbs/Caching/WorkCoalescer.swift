/// Work keyed by what it makes, shared by everyone who asks for the same key while it runs: one task per key, every
/// caller awaiting its result, and the task cancelled once the last caller has stopped waiting (its own task
/// cancelled) and no `hold` keeps it going.
public actor WorkCoalescer<Key: Hashable & Sendable, Value: Sendable> {
    private final class Flight {
        let id: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var holds = 0
        init(id: Int) { self.id = id }
    }

    private var flights: [Key: Flight] = [:]
    private var nextID = 0
    /// Callers that joined work already under way.
    public private(set) var joined = 0
    /// Work cancelled because nobody waited for it any more.
    public private(set) var cancelled = 0

    /// A coalescer with nothing under way.
    public init() {}

    /// Keys with work under way.
    public var count: Int { flights.count }

    /// The result of the work for `key`: the work under way, or `work` started now.
    /// - Throws: what the work throws; `CancellationError` when this caller's task is cancelled (the work goes on
    ///   while others wait for it or hold it).
    public func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                flight(for: key, work: work).waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.leave(key, waiter: waiter) }
        }
    }

    /// Starts the work for `key` (or joins it) without waiting for it, and keeps it going until `release(_:)`.
    public func hold(_ key: Key, work: @escaping @Sendable () async throws -> Value) {
        flight(for: key, work: work).holds += 1
    }

    /// Gives up one `hold` of `key`; the work stops when nobody waits for it either.
    public func release(_ key: Key) {
        guard let flight = flights[key], flight.holds > 0 else { return }
        flight.holds -= 1
        cancelIfAbandoned(key, flight)
    }

    private func makeID() -> Int {
        nextID += 1
        return nextID
    }

    private func flight(for key: Key, work: @escaping @Sendable () async throws -> Value) -> Flight {
        if let flight = flights[key] {
            joined += 1
            return flight
        }
        let flight = Flight(id: makeID())
        flights[key] = flight
        flight.task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            self.finish(key, flightID: flight.id, result: result)
        }
        return flight
    }

    private func finish(_ key: Key, flightID: Int, result: Result<Value, any Error>) {
        guard let flight = flights[key], flight.id == flightID else { return }
        flights[key] = nil
        for continuation in flight.waiters.values { continuation.resume(with: result) }
    }

    private func leave(_ key: Key, waiter: Int) {
        guard let flight = flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
        cancelIfAbandoned(key, flight)
    }

    private func cancelIfAbandoned(_ key: Key, _ flight: Flight) {
        guard flight.waiters.isEmpty, flight.holds == 0 else { return }
        flight.task?.cancel()
        flights[key] = nil
        cancelled += 1
    }
}
