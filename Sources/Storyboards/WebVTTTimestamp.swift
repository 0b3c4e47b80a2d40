/// WebVTT timestamps (W3C WebVTT, "WebVTT timestamp"): `HH:MM:SS.mmm`, the hours two digits or more.
public enum WebVTTTimestamp {
    /// `time` as `HH:MM:SS.mmm`, to the nearest millisecond (hours padded to two digits; negative
    /// times are written as 0).
    public static func format(_ time: Duration) -> String {
        let total = max(0, time.nearestMilliseconds)
        let hours = total / 3_600_000
        let minutes = total / 60_000 % 60
        let seconds = total / 1000 % 60
        let millis = total % 1000
        return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(millis, 3)
    }

    /// Parses `[HH:]MM:SS.mmm` (hours any number of digits, at least two when present; minutes and seconds
    /// two digits below 60; exactly three digits of milliseconds). Returns nil when `text` is not one.
    public static func parse<S: StringProtocol>(_ text: S) -> Duration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let last = parts[parts.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard last.count == 2, last[0].count == 2, last[1].count == 3,
              let seconds = digits(last[0]), let millis = digits(last[1]), seconds < 60 else { return nil }
        let minutesText = parts[parts.count - 2]
        guard minutesText.count == 2, let minutes = digits(minutesText), minutes < 60 else { return nil }
        var hours: Int64 = 0
        if parts.count == 3 {
            guard parts[0].count >= 2, parts[0].count <= 9, let value = digits(parts[0]) else { return nil }
            hours = value
        }
        return .milliseconds(((hours * 60 + minutes) * 60 + seconds) * 1000 + millis)
    }

    /// The value of a run of ASCII digits (nil for anything else, or an empty run).
    private static func digits<S: StringProtocol>(_ text: S) -> Int64? {
        guard !text.isEmpty, text.count <= 18 else { return nil }
        var value: Int64 = 0
        for character in text.unicodeScalars {
            guard character.value >= 48, character.value <= 57 else { return nil }
            value = value * 10 + Int64(character.value - 48)
        }
        return value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
