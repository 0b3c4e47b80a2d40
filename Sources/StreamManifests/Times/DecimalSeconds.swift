/// Exact conversion of a decimal number of seconds (`10.010`, `6`, `0.0416667`) to a `Duration`, with no detour
/// through `Double`: HLS segment durations add up to the playlist's time, and a sum of rounded Doubles drifts.
enum DecimalSeconds {
    /// Longest time accepted, in whole seconds: about 31,700 years, far past any stream and far from overflow.
    static let maximumSeconds: Int64 = 1 << 40

    /// `text` (digits, an optional `.` and up to 18 fraction digits; an optional leading `-` when `allowsNegative`) as
    /// a Duration, nil when it is not such a number or passes `maximumSeconds`. Fraction digits past the 18th
    /// (attoseconds) are dropped.
    static func duration<Text: StringProtocol>(_ text: Text, allowsNegative: Bool = false) -> Duration? {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if allowsNegative, utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        }
        guard let first = utf8.first, first != UInt8(ascii: ".") || utf8.count > 1 else { return nil }
        var seconds: Int64 = 0
        var attoseconds: Int64 = 0
        var scale: Int64 = 100_000_000_000_000_000
        var inFraction = false
        var digits = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                guard !inFraction else { return nil }
                inFraction = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            digits += 1
            if inFraction {
                attoseconds += digit * scale
                scale /= 10
            } else {
                seconds = seconds * 10 + digit
                guard seconds <= maximumSeconds else { return nil }
            }
        }
        guard digits > 0 else { return nil }
        let value = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        return negative ? .zero - value : value
    }
}
