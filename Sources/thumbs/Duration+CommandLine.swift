extension Duration {
    /// Whether a number of seconds from the command line makes a `Duration`: finite and within a million years
    /// either way (`Duration.seconds(_:)` traps past its range).
    static func holds(seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) < 3e13
    }

    /// A non-negative number of seconds from the command line as a limit: nil (no limit) for one that `holds(seconds:)`
    /// refuses (infinite, or past a million years), which no run would reach.
    static func limit(seconds: Double) -> Duration? {
        holds(seconds: seconds) ? .seconds(seconds) : nil
    }
}
