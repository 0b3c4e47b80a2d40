extension Duration {
    /// The duration in milliseconds, for timings and arithmetic in seconds.
    package var milliseconds: Double {
        let (seconds, attoseconds) = saturatedComponents
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The duration in seconds.
    package var seconds: Double { milliseconds / 1000 }

    /// The duration in whole units of which `unitsPerSecond` make a second (1,000: milliseconds; 1,000,000,000:
    /// nanoseconds; it must divide 10^18), rounded toward zero; saturated at the ends of `Int64`.
    package func whole(unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = saturatedComponents
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / (1_000_000_000_000_000_000 / unitsPerSecond))
        return sumOverflow ? (whole < 0 ? .min : .max) : sum
    }

    /// `components`, with a duration past ±`Int64.max` seconds (a Duration holds up to about 1.7e20 s; `components`
    /// traps there) taken as that many seconds.
    private var saturatedComponents: (seconds: Int64, attoseconds: Int64) {
        if self >= .seconds(Int64.max) { return (.max, 0) }
        if self <= .seconds(Int64.min) { return (.min, 0) }
        return components
    }
}
