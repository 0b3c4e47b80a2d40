/// Milliseconds since it was started, for stage timings.
struct Stopwatch {
    private let start = ContinuousClock.now

    /// Milliseconds elapsed.
    var milliseconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
