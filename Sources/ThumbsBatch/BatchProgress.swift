import ByteSources

/// Where a batch stands: movies done of the total, by outcome, and the pace so far.
public struct BatchProgress: Sendable, Equatable {
    /// Movies in the batch.
    public var total: Int
    /// Movies made.
    public var made = 0
    /// Movies skipped.
    public var skipped = 0
    /// Movies failed.
    public var failed = 0
    /// Time since the batch started.
    public var elapsed: Duration = .zero

    /// An empty batch of `total` movies.
    public init(total: Int) {
        self.total = total
    }

    /// Movies done, whatever their outcome.
    public var done: Int { made + skipped + failed }

    /// Movies done a second so far (0 before the first).
    public var rate: Double {
        elapsed > .zero ? Double(done) / elapsed.seconds : 0
    }

    /// The time left at the pace so far; nil before the first movie is done.
    public var estimatedRemaining: Duration? {
        guard rate > 0 else { return nil }
        return .milliseconds(Int64((Double(total - done) / rate * 1000).rounded()))
    }

    /// Counts `outcome`.
    mutating func count(_ outcome: BatchResult.Outcome) {
        switch outcome {
        case .made: made += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        }
    }
}
