import Synchronization

/// Counts requests, bytes, round trips and time: a source's own (`ByteSource.statistics`), or those of one piece of
/// work (`measure(_:)`), whatever else reads the same sources at the same time.
///
/// A source that counts what it reads records each request with `FetchMeter.begin(in:)`: into its own meter and
/// into every meter measuring the task that reads (the meters of the calls it runs inside, outermost first).
/// Reads made by child tasks and by tasks they create count for the meters that measure their parent; reads
/// another task makes (one that shares a fetch already under way) count for that task's meters alone.
public final class FetchMeter: Sendable {
    private struct State {
        var stats = FetchStats()
        var inFlight = 0
        var firstStart: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The meters measuring the current task, outermost first.
    @TaskLocal static var active: [FetchMeter] = []

    /// A meter with nothing counted yet.
    public init() {}

    /// What was counted so far; `connectionsOpened` is nil (connections are a client's: the source that owns one
    /// says how many it opened).
    public var statistics: FetchStats {
        var stats = state.withLock { $0.stats }
        stats.connectionsOpened = nil
        return stats
    }

    /// Runs `body` with this meter measuring it: every request a source records while `body` runs (in its task or
    /// the tasks it starts) counts here too, also when `body` throws.
    public func measure<Result>(isolation: isolated (any Actor)? = #isolation,
                                _ body: () async throws -> Result) async rethrows -> Result {
        let meters = Self.active.contains { $0 === self } ? Self.active : Self.active + [self]
        return try await Self.$active.withValue(meters, operation: body, isolation: isolation)
    }

    /// Runs `body` with no meter measuring it: a source that records a read itself keeps the sources it reads
    /// through from recording it again.
    package static func unmeasured<Result>(isolation: isolated (any Actor)? = #isolation,
                                           _ body: () async throws -> Result) async rethrows -> Result {
        try await $active.withValue([], operation: body, isolation: isolation)
    }

    // MARK: - Recording, for sources that count

    /// One request being recorded: the meters it counts in, and when it started.
    public struct Request: Sendable {
        fileprivate let meters: [FetchMeter]
        /// When the request started.
        public let started: ContinuousClock.Instant

        /// Records the end of the request: `record` with its `elapsed` and `timeToFirstByte` set from
        /// `firstByte` (when the response head came; nil: none came).
        public func end(_ record: FetchStats.Request, firstByte: ContinuousClock.Instant?) {
            let now = ContinuousClock.now
            var entry = record
            entry.elapsed = now - started
            entry.timeToFirstByte = (firstByte ?? now) - started
            for meter in meters {
                meter.state.withLock { state in
                    state.inFlight -= 1
                    state.stats.log.append(entry)
                    state.stats.bytes += entry.bytes
                    if state.stats.timeToFirstByte == nil, let firstByte, let first = state.firstStart {
                        state.stats.timeToFirstByte = firstByte - first
                    }
                    if let first = state.firstStart { state.stats.wallTime = now - first }
                }
            }
        }
    }

    /// Records the start of a request in `own` (a source's meter) and in the meters measuring this task: one more
    /// request, and one more round trip where none was under way.
    public static func begin(in own: FetchMeter) -> Request {
        let meters = counting(own)
        let now = ContinuousClock.now
        for meter in meters {
            meter.state.withLock { state in
                if state.firstStart == nil { state.firstStart = now }
                if state.inFlight == 0 { state.stats.roundTrips += 1 }
                state.inFlight += 1
                state.stats.requests += 1
            }
        }
        return Request(meters: meters, started: now)
    }

    /// A round of requests sent side by side: those begun before `end()` count as one round trip however the tasks
    /// that send them are scheduled.
    public struct Round: Sendable {
        fileprivate let meters: [FetchMeter]

        /// Closes the round.
        public func end() {
            for meter in meters { meter.state.withLock { $0.inFlight -= 1 } }
        }
    }

    /// Opens a round of requests sent side by side, in `own` and the meters measuring this task.
    public static func beginRound(in own: FetchMeter) -> Round {
        let meters = counting(own)
        for meter in meters {
            meter.state.withLock { state in
                if state.inFlight == 0 { state.stats.roundTrips += 1 }
                state.inFlight += 1
            }
        }
        return Round(meters: meters)
    }

    /// `own` and the meters measuring this task, each once.
    private static func counting(_ own: FetchMeter) -> [FetchMeter] {
        [own] + active.filter { $0 !== own }
    }

    /// Counts a retry (after a reset or a 502, 503 or 504) in `own` and the meters measuring this task.
    public static func noteRetry(in own: FetchMeter) {
        for meter in counting(own) { meter.state.withLock { $0.stats.retries += 1 } }
    }

    /// Counts an answer that ignored Range (the whole body sent) in `own` and the meters measuring this task.
    public static func noteIgnoredRange(in own: FetchMeter) {
        for meter in counting(own) { meter.state.withLock { $0.stats.ignoredRangeResponses += 1 } }
    }
}
