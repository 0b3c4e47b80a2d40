extension Duration {
    /// A non-negative number of seconds from the command line as a limit: nil (no limit) for one past a million years
    /// or infinite, which `Duration` cannot hold and no run would reach.
    static func limit(seconds: Double) -> Duration? {
        seconds < 3e13 ? .seconds(seconds) : nil
    }
}
