/// Milliseconds since it was started, for read and stage timings (within this package).
package struct Stopwatch: Sendable {
    /// When it was started.
    package let start = ContinuousClock.now

    /// Starts it now.
    package init() {}

    /// Milliseconds elapsed.
    package var milliseconds: Double { (ContinuousClock.now - start).milliseconds }
}

extension Duration {
    /// The duration in milliseconds (the one conversion this package uses).
    package var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in seconds.
    package var seconds: Double { milliseconds / 1000 }
}
