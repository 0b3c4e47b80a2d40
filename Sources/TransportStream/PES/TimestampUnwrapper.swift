/// Turns 33-bit 90 kHz timestamps, which wrap every 26.5 hours, into one increasing timeline: each timestamp becomes
/// the value nearest the one before it that has the same 33 low bits. The first is taken as it is.
struct TimestampUnwrapper {
    /// The period of a 33-bit timestamp.
    static let period: Int64 = 1 << 33

    private var last: Int64?

    /// `timestamp` (33 bits) on the unwrapped timeline.
    mutating func unwrap(_ timestamp: Int64) -> Int64 {
        let value = timestamp & (Self.period - 1)
        guard let last else {
            self.last = value
            return value
        }
        var difference = (value - last) & (Self.period - 1)
        if difference >= Self.period / 2 { difference -= Self.period }
        let unwrapped = last + difference
        self.last = unwrapped
        return unwrapped
    }
}
