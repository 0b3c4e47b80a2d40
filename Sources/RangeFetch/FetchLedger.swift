import MP4Box

/// The mutable state of one `HTTPByteSource`: validator, length, budgets and statistics.
actor FetchLedger {
    private(set) var stats = FetchStats()
    private(set) var validator: Validator?
    private(set) var length: UInt64?
    private var inFlight = 0
    private var firstStart: ContinuousClock.Instant?
    /// Where redirects led: later requests go there directly.
    private(set) var redirectedURL: String?
    /// The whole resource, when a server that ignores Range sent it and it was small enough to keep.
    private(set) var wholeBody: [UInt8]?
    /// Body bytes received so far, by every request, finished or not: what the byte budget counts.
    private var received: UInt64 = 0
    private let options: HTTPFetchOptions

    init(options: HTTPFetchOptions, length: UInt64?, validator: Validator?) {
        self.options = options
        self.length = length
        self.validator = validator
    }

    /// Records the start of a request after checking the budgets; returns its start time.
    func begin(url: String, range: Range<UInt64>?) throws -> ContinuousClock.Instant {
        if let maximum = options.maximumRequests, stats.requests >= maximum {
            throw FetchError(.budgetExceeded, url: url, range: range, "request budget of \(maximum) requests exceeded")
        }
        if let maximum = options.maximumBytes, received >= maximum {
            throw FetchError(.budgetExceeded, url: url, range: range, "byte budget of \(maximum) bytes exceeded")
        }
        let now = ContinuousClock.now
        if let deadline = options.deadline, let firstStart, (now - firstStart).seconds > deadline {
            throw FetchError(.budgetExceeded, url: url, range: range, "deadline of \(deadline) s passed")
        }
        if firstStart == nil { firstStart = now }
        if inFlight == 0 { stats.roundTrips += 1 }
        inFlight += 1
        stats.requests += 1
        return now
    }

    /// Opens a round of requests sent side by side: those begun before `endSideBySide()` count as one round trip
    /// however the tasks that send them are scheduled.
    func beginSideBySide() {
        if inFlight == 0 { stats.roundTrips += 1 }
        inFlight += 1
    }

    /// Closes the round `beginSideBySide()` opened.
    func endSideBySide() {
        inFlight -= 1
    }

    /// Records the end of a request.
    func end(_ request: FetchStats.Request, started: ContinuousClock.Instant, firstByte: ContinuousClock.Instant?) {
        inFlight -= 1
        let now = ContinuousClock.now
        var entry = request
        entry.milliseconds = (now - started).milliseconds
        entry.firstByteMilliseconds = ((firstByte ?? now) - started).milliseconds
        stats.log.append(entry)
        stats.bytes += request.bytes
        if stats.timeToFirstByteMilliseconds == nil, let firstByte, let firstStart {
            stats.timeToFirstByteMilliseconds = (firstByte - firstStart).milliseconds
        }
        if let firstStart { stats.wallMilliseconds = (now - firstStart).milliseconds }
    }

    /// Seconds left before the deadline, if there is one.
    func secondsLeft() -> Double? {
        guard let deadline = options.deadline else { return nil }
        guard let firstStart else { return deadline }
        return max(0, deadline - (ContinuousClock.now - firstStart).seconds)
    }

    /// Notes where redirects led, for the requests that follow.
    func noteRedirect(to url: String) {
        redirectedURL = url
    }

    /// Counts `bytes` more body bytes as they arrive, and stops the transfer once they pass the byte budget or the
    /// deadline has passed.
    func receive(_ bytes: Int, url: String, range: Range<UInt64>?) throws {
        received += UInt64(bytes)
        if let maximum = options.maximumBytes, received > maximum {
            throw FetchError(.budgetExceeded, url: url, range: range,
                             "byte budget of \(maximum) bytes reached: \(received) bytes received, the transfer stopped")
        }
        if let left = secondsLeft(), left <= 0, let deadline = options.deadline {
            throw FetchError(.budgetExceeded, url: url, range: range, "deadline of \(deadline) s passed while the body arrived")
        }
    }

    /// Keeps the whole resource (a server that ignores Range sent it): later reads are answered from it.
    func keep(wholeBody body: [UInt8]) {
        wholeBody = body
        if length == nil { length = UInt64(body.count) }
    }

    /// Checks the byte budget before `bytes` more are asked for.
    func checkBytes(url: String, range: Range<UInt64>?, adding bytes: UInt64) throws {
        if let maximum = options.maximumBytes, received + bytes > maximum {
            throw FetchError(.budgetExceeded, url: url, range: range, "byte budget of \(maximum) bytes exceeded")
        }
    }

    /// Adopts a response's validator and length: the first one sets them; a different one later is a change.
    /// Returns true when the resource changed.
    func observe(validator seen: Validator?, length seenLength: UInt64?) -> Bool {
        if validator == nil {
            validator = seen
        } else if let current = validator, current.differs(from: seen) {
            return true
        }
        if let seenLength {
            if let length, length != seenLength { return true }
            length = seenLength
        }
        return false
    }

    /// Forgets the validator and length (after a change, with the restart policy).
    func adopt(validator seen: Validator?, length seenLength: UInt64?) {
        validator = seen
        length = seenLength
    }

    /// Learns the length (from a 416's Content-Range, or the end of a body).
    func learn(length seenLength: UInt64) {
        if length == nil { length = seenLength }
    }

    func noteRetry() { stats.retries += 1 }
    func noteIgnoredRange() { stats.ignoredRangeResponses += 1 }
}
