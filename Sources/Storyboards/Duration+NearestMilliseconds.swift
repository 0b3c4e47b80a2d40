import ByteSources

extension Duration {
    /// The duration to the nearest millisecond (halves away from zero; saturated at the ends of `Int64`): the unit of
    /// WebVTT timestamps, BIF separations, DASH timelines, grids and the manifest. A command line's 0.3 s is
    /// 0.29999999999999998890 s as a Double, and is 300 ms here.
    var nearestMilliseconds: Int64 {
        let whole = whole(unitsPerSecond: 1000)
        guard whole > .min, whole < .max else { return whole }
        let rest = self - .milliseconds(whole)
        if rest >= .microseconds(500) { return whole + 1 }
        if rest <= .microseconds(-500) { return whole - 1 }
        return whole
    }
}
