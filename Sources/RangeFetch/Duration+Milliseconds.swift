extension Duration {
    /// The duration in whole milliseconds, rounded toward zero; saturated at the ends of `Int64`.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return sumOverflow ? (milliseconds < 0 ? .min : .max) : sum
    }
}
