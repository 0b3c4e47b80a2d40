extension Duration {
    /// `ticks / timescale` seconds, exact to the attosecond (rounded toward negative infinity below it); nil for a
    /// timescale of 0 or less.
    static func ticks(_ ticks: Int64, timescale: Int64) -> Duration? {
        guard timescale > 0 else { return nil }
        var seconds = ticks / timescale
        var remainder = ticks % timescale
        if remainder < 0 {
            seconds -= 1
            remainder += timescale
        }
        // remainder < timescale, so remainder * 10^18 / timescale < 10^18 fits; the product needs 128 bits.
        let product = UInt64(remainder).multipliedFullWidth(by: 1_000_000_000_000_000_000)
        let attoseconds = UInt64(timescale).dividingFullWidth(product).quotient
        return Duration(secondsComponent: seconds, attosecondsComponent: Int64(attoseconds))
    }

    /// The whole ticks of `timescale` in this time, rounded toward negative infinity; nil for a timescale of 0 or
    /// less, or past the range of `Int64`.
    func ticks(timescale: Int64) -> Int64? {
        // `components` traps past Int64 seconds (a Duration reaches about 1.7e20 s).
        guard timescale > 0, self < .seconds(Int64.max), self > .seconds(Int64.min) else { return nil }
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: timescale)
        guard !overflow else { return nil }
        // The two components carry the sign of the whole (-1.5 s is -1 s and -0.5e18 as): take the floor either way.
        let magnitude = UInt64(attoseconds.magnitude).multipliedFullWidth(by: UInt64(timescale))
        let part = Int64(UInt64(1_000_000_000_000_000_000).dividingFullWidth(magnitude).quotient)
        let exact = UInt64(1_000_000_000_000_000_000).dividingFullWidth(magnitude).remainder == 0
        let fraction = attoseconds >= 0 ? part : -part - (exact ? 0 : 1)
        let (sum, overflowed) = whole.addingReportingOverflow(fraction)
        return overflowed ? nil : sum
    }
}
