import ByteSources

extension Duration {
    /// The duration in whole milliseconds (rounded toward zero, saturated at the ends of `Int64`): the unit of
    /// WebVTT timestamps, BIF separations, DASH timelines and the manifest.
    var wholeMilliseconds: Int64 { whole(unitsPerSecond: 1000) }
}
