/// The time since it was started, for read and stage timings (within this package).
package struct Stopwatch: Sendable {
    /// When it was started.
    package let start = ContinuousClock.now

    /// Starts it now.
    package init() {}

    /// The time elapsed.
    package var elapsed: Duration { ContinuousClock.now - start }
}
