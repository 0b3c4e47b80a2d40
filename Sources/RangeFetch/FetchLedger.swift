import ByteSources
import Synchronization

/// The mutable state of one `HTTPByteSource`: validator, length, budgets and statistics (its `FetchMeter`, which
/// also records each request in the meters measuring the task that sends it).
///
/// A lock, not an actor: nothing in it waits, and it is touched for every chunk of every body, so callers take the
/// lock and go on rather than hop to an actor and back.
final class FetchLedger: Sendable {
    private struct State {
        var validator: Validator?
        var length: UInt64?
        /// Requests begun, for the request budget.
        var requests = 0
        /// When the first request began, for the deadline.
        var firstStart: ContinuousClock.Instant?
        /// Where redirects led: later requests go there directly.
        var redirectedURL: String?
        /// The whole resource, when a server that ignores Range sent it and it was small enough to keep.
        var wholeBody: [UInt8]?
        /// Body bytes received so far, by every request, finished or not: what the byte budget counts.
        var received: UInt64 = 0
    }

    private let state: Mutex<State>
    private let options: HTTPFetchOptions
    private let meter = FetchMeter()

    init(options: HTTPFetchOptions, length: UInt64?, validator: Validator?) {
        self.options = options
        state = Mutex(State(validator: validator, length: length))
    }

    var stats: FetchStats { meter.statistics }
    var validator: Validator? { state.withLock { $0.validator } }
    var length: UInt64? { state.withLock { $0.length } }
    /// Where redirects led: later requests go there directly.
    var redirectedURL: String? { state.withLock { $0.redirectedURL } }
    /// The whole resource, when a server that ignores Range sent it and it was small enough to keep.
    var wholeBody: [UInt8]? { state.withLock { $0.wholeBody } }

    /// Records the start of a request after checking the budgets.
    func begin(url: String, range: Range<UInt64>?) throws -> FetchMeter.Request {
        let options = options
        try state.withLock { state throws(FetchError) in
            if let maximum = options.maximumRequests, state.requests >= maximum {
                throw FetchError(.budgetExceeded, url: url, range: range, "request budget of \(maximum) requests exceeded")
            }
            if let maximum = options.maximumBytes, state.received >= maximum {
                throw FetchError(.budgetExceeded, url: url, range: range, "byte budget of \(maximum) bytes exceeded")
            }
            let now = ContinuousClock.now
            if let deadline = options.deadline, let firstStart = state.firstStart, now - firstStart > deadline {
                throw FetchError(.budgetExceeded, url: url, range: range, "deadline of \(deadline) passed")
            }
            if state.firstStart == nil { state.firstStart = now }
            state.requests += 1
        }
        return FetchMeter.begin(in: meter)
    }

    /// Opens a round of requests sent side by side: those begun before the round ends count as one round trip
    /// however the tasks that send them are scheduled.
    func beginSideBySide() -> FetchMeter.Round {
        FetchMeter.beginRound(in: meter)
    }

    /// The time left before the deadline, if there is one.
    func timeLeft() -> Duration? {
        let firstStart = state.withLock { $0.firstStart }
        return Self.timeLeft(deadline: options.deadline, firstStart: firstStart)
    }

    private static func timeLeft(deadline: Duration?, firstStart: ContinuousClock.Instant?) -> Duration? {
        guard let deadline else { return nil }
        guard let firstStart else { return deadline }
        return max(.zero, deadline - (ContinuousClock.now - firstStart))
    }

    /// Notes where redirects led, for the requests that follow.
    func noteRedirect(to url: String) {
        state.withLock { $0.redirectedURL = url }
    }

    /// Counts `bytes` more body bytes as they arrive, and stops the transfer once they pass the byte budget or the
    /// deadline has passed.
    func receive(_ bytes: Int, url: String, range: Range<UInt64>?) throws {
        let (received, firstStart) = state.withLock { state in
            state.received += UInt64(bytes)
            return (state.received, state.firstStart)
        }
        if let maximum = options.maximumBytes, received > maximum {
            throw FetchError(.budgetExceeded, url: url, range: range,
                             "byte budget of \(maximum) bytes reached: \(received) bytes received, the transfer stopped")
        }
        if let deadline = options.deadline, let left = Self.timeLeft(deadline: deadline, firstStart: firstStart), left <= .zero {
            throw FetchError(.budgetExceeded, url: url, range: range, "deadline of \(deadline) passed while the body arrived")
        }
    }

    /// Keeps the whole resource (a server that ignores Range sent it): later reads are answered from it.
    func keep(wholeBody body: [UInt8]) {
        state.withLock { state in
            state.wholeBody = body
            if state.length == nil { state.length = UInt64(body.count) }
        }
    }

    /// Checks the byte budget before `bytes` more are asked for.
    func checkBytes(url: String, range: Range<UInt64>?, adding bytes: UInt64) throws {
        let received = state.withLock { $0.received }
        if let maximum = options.maximumBytes, received + bytes > maximum {
            throw FetchError(.budgetExceeded, url: url, range: range, "byte budget of \(maximum) bytes exceeded")
        }
    }

    /// Adopts a response's validator and length: the first one sets them; a different one later is a change.
    /// Returns true when the resource changed.
    func observe(validator seen: Validator?, length seenLength: UInt64?) -> Bool {
        state.withLock { state in
            if state.validator == nil {
                state.validator = seen
            } else if let current = state.validator, current.differs(from: seen) {
                return true
            }
            if let seenLength {
                if let length = state.length, length != seenLength { return true }
                state.length = seenLength
            }
            return false
        }
    }

    /// Forgets the validator and length (after a change, with the restart policy).
    func adopt(validator seen: Validator?, length seenLength: UInt64?) {
        state.withLock { state in
            state.validator = seen
            state.length = seenLength
        }
    }

    /// Learns the length (from a 416's Content-Range, or the end of a body).
    func learn(length seenLength: UInt64) {
        state.withLock { state in
            if state.length == nil { state.length = seenLength }
        }
    }

    func noteRetry() { FetchMeter.noteRetry(in: meter) }
    func noteIgnoredRange() { FetchMeter.noteIgnoredRange(in: meter) }
}
