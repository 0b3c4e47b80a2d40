/// A moment in UTC, as HLS's `EXT-X-PROGRAM-DATE-TIME` and DASH's `availabilityStartTime` and `publishTime` give it
/// (ISO 8601 / RFC 3339: `2024-09-23T12:00:00.5Z`, `2024-09-23T14:00:00+02:00`; without a zone, UTC).
public struct StreamDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The time since 1970-01-01T00:00:00Z.
    public var sinceEpoch: Duration
    /// The text it was read from.
    public var text: String

    /// A date `sinceEpoch` after the Unix epoch, written as `text`.
    public init(sinceEpoch: Duration, text: String) {
        self.sinceEpoch = sinceEpoch
        self.text = text
    }

    /// The date in `text`, nil when it is not an ISO 8601 date and time (a date alone is midnight UTC).
    public init?(parsing text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        let utf8 = Array(trimmed.utf8)
        var position = 0
        func number(_ digits: Int) -> Int64? {
            guard position + digits <= utf8.count else { return nil }
            var value: Int64 = 0
            for byte in utf8[position ..< position + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            position += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard position < utf8.count, utf8[position] == character else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400
        var fraction = Duration.zero
        if position < utf8.count, utf8[position] == 84 || utf8[position] == 116 {  // T or t
            position += 1
            guard let hour = number(2), expect(58), let minute = number(2), hour < 24, minute < 60 else { return nil }
            var second: Int64 = 0
            if expect(58) {
                guard let whole = number(2), whole <= 60 else { return nil }
                second = whole
                if expect(46) {
                    let start = position
                    while position < utf8.count, utf8[position] >= 48, utf8[position] <= 57 { position += 1 }
                    guard position > start,
                          let value = DecimalSeconds.duration("0." + String(decoding: utf8[start ..< position], as: UTF8.self))
                    else { return nil }
                    fraction = value
                }
            }
            seconds += hour * 3_600 + minute * 60 + second
            if position < utf8.count {
                if utf8[position] == 90 || utf8[position] == 122 {  // Z or z
                    position += 1
                } else if utf8[position] == 43 || utf8[position] == 45 {  // + or -
                    let sign: Int64 = utf8[position] == 43 ? 1 : -1
                    position += 1
                    guard let offsetHours = number(2), let offsetMinutes = expect(58) ? number(2) : number(2),
                          offsetHours < 24, offsetMinutes < 60 else { return nil }
                    seconds -= sign * (offsetHours * 3_600 + offsetMinutes * 60)
                } else {
                    return nil
                }
            }
        }
        guard position == utf8.count else { return nil }
        self.init(sinceEpoch: .seconds(seconds) + fraction, text: trimmed)
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (negative before it).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        // Counted from 0000-03-01, so that the leap day ends a year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func < (lhs: StreamDate, rhs: StreamDate) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }

    /// Dates are equal when they name the same moment, however written.
    public static func == (lhs: StreamDate, rhs: StreamDate) -> Bool { lhs.sinceEpoch == rhs.sinceEpoch }

    /// Hashes the moment.
    public func hash(into hasher: inout Hasher) { hasher.combine(sinceEpoch) }

    /// The text it was read from.
    public var description: String { text }
}
