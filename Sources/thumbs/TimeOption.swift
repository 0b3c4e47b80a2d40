import ArgumentParser

/// `--time`, for the commands that take one frame.
struct TimeOption: ParsableArguments {
    // `.unconditional`: `--time -5` is a (refused) negative time, not an unknown option `-5`.
    @Option(parsing: .unconditional, help: "Time in seconds (default: the poster time, else 10 % of the duration).")
    var time: Double?

    func validate() throws {
        if let time, !time.isFinite || time < 0 { throw ValidationError("--time must be a non-negative number of seconds") }
    }
}
