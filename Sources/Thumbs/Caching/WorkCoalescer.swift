import Synchronization

/// Work keyed by what it makes, shared by everyone who asks for the same key while it runs: one task per key, every
/// caller awaiting its result, and the task cancelled once the last caller has stopped waiting (its own task
/// cancelled) and no `hold` keeps it going.
///
/// A caller's cancellation is handled where it happens, under a lock, with no task to schedule: the caller's wait
/// ends and an abandoned work's task is cancelled at once, even while every thread of the concurrency pool is busy
/// (pictures being rendered), so the work stops at its next cancellation check instead of running to its end.
public final class WorkCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Flight {
        let id: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var holds = 0
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID = 0
        var joined = 0
        var cancelled = 0

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    private let state = Mutex(State())

    /// A coalescer with nothing under way.
    public init() {}

    /// Keys with work under way.
    public var count: Int { state.withLock { $0.flights.count } }
    /// Callers that joined work already under way.
    public var joined: Int { state.withLock { $0.joined } }
    /// Work cancelled because nobody waited for it any more.
    public var cancelled: Int { state.withLock { $0.cancelled } }

    /// The result of the work for `key`: the work under way, or `work` started now.
    /// - Throws: what the work throws; `CancellationError` when this caller's task is cancelled (the work goes on
    ///   while others wait for it or hold it).
    public func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                // Under the lock: the cancellation handler runs either before (and the task is cancelled here) or
                // after (and finds the waiter).
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    join(key, work: work, in: &state) { $0.waiters[waiter] = continuation }
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// Starts the work for `key` (or joins it) without waiting for it, and keeps it going until `release(_:)`.
    public func hold(_ key: Key, work: @escaping @Sendable () async throws -> Value) {
        state.withLock { state in join(key, work: work, in: &state) { $0.holds += 1 } }
    }

    /// Gives up one `hold` of `key`; the work stops when nobody waits for it either.
    public func release(_ key: Key) {
        let abandoned = state.withLock { state -> Task<Void, Never>? in
            guard var flight = state.flights[key], flight.holds > 0 else { return nil }
            flight.holds -= 1
            state.flights[key] = flight
            return abandon(key, in: &state)
        }
        abandoned?.cancel()
    }

    /// Joins the flight of `key` (starting it with `work` when there is none) and changes it with `change`.
    private func join(_ key: Key, work: @escaping @Sendable () async throws -> Value, in state: inout State,
                      _ change: (inout Flight) -> Void) {
        if var flight = state.flights[key] {
            state.joined += 1
            change(&flight)
            state.flights[key] = flight
            return
        }
        let id = state.makeID()
        var flight = Flight(id: id)
        flight.task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            self.finish(key, flightID: id, result: result)
        }
        change(&flight)
        state.flights[key] = flight
    }

    private func finish(_ key: Key, flightID: Int, result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard let flight = state.flights[key], flight.id == flightID else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for continuation in waiters { continuation.resume(with: result) }
    }

    private func leave(_ key: Key, waiter: Int) {
        let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard var flight = state.flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            state.flights[key] = flight
            return (continuation, abandon(key, in: &state))
        }
        continuation?.resume(throwing: CancellationError())
        // Cancelled outside the lock: the work's own cancellation handlers may come back here (a work that waits for
        // another key of this coalescer).
        abandoned?.cancel()
    }

    /// Removes the flight of `key` when nobody waits for it or holds it, and gives its task to cancel.
    private func abandon(_ key: Key, in state: inout State) -> Task<Void, Never>? {
        guard let flight = state.flights[key], flight.waiters.isEmpty, flight.holds == 0 else { return nil }
        state.flights[key] = nil
        state.cancelled += 1
        return flight.task
    }
}
