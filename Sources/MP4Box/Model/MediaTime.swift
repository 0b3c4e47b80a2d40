/// A time as a count of timescale units: exact, with no rounding.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The count of units.
    public var value: Int64
    /// Units per second (never 0).
    public var timescale: UInt32

    /// Makes a time of `value` units at `timescale` units per second; a timescale of 0 (which no parsed box
    /// carries: mvhd and mdhd reject it) is taken as 1.
    public init(value: Int64, timescale: UInt32) {
        self.value = value
        self.timescale = max(timescale, 1)
    }

    /// The time in seconds.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The time as a `Duration`, exactly to the attosecond (rounded toward negative infinity below that).
    public var duration: Duration {
        let units = Int64(timescale)
        var (whole, remainder) = value.quotientAndRemainder(dividingBy: units)
        if remainder < 0 {
            whole -= 1
            remainder += units
        }
        let attoseconds = units.dividingFullWidth(remainder.multipliedFullWidth(by: 1_000_000_000_000_000_000)).quotient
        return Duration(secondsComponent: whole, attosecondsComponent: attoseconds)
    }

    /// The same instant at another timescale, rounded toward negative infinity.
    /// Values too large for the new timescale saturate at Int64's ends.
    public func converted(to newTimescale: UInt32) -> MediaTime {
        if newTimescale == timescale { return self }
        let (product, overflow) = value.multipliedReportingOverflow(by: Int64(newTimescale))
        guard !overflow else {
            let scaled = Double(value) * Double(newTimescale) / Double(timescale)
            let limit = Double(Int64.max / 2)
            return MediaTime(value: Int64(Swift.max(-limit, Swift.min(limit, scaled))), timescale: newTimescale)
        }
        let divisor = Int64(timescale)
        let quotient = product / divisor
        let floored = product % divisor < 0 ? quotient - 1 : quotient
        return MediaTime(value: floored, timescale: newTimescale)
    }

    /// How a time in seconds becomes a whole number of units.
    public enum Rounding: Sendable {
        /// To the nearest unit.
        case nearest
        /// To the unit that contains the instant (down), with a microsecond of slack: a time printed with six
        /// decimals (as ffprobe and `--stats` print, 0.033366 for 1001/30000 s) and a decimal time that binary
        /// rounding brings just under a unit (2.0 s arriving as 1.9999999999) mean the unit that starts within a
        /// microsecond after it.
        case containing
    }

    /// How far before a unit's start a time still means that unit when rounding `.containing`: one microsecond.
    public static let containingSlack = 1e-6

    /// The time `seconds` at `timescale`, rounded as `rounding` says and clamped to a representable range.
    public init(seconds: Double, timescale: UInt32, rounding: Rounding = .nearest) {
        let scaled = switch rounding {
        case .nearest: (seconds * Double(timescale)).rounded()
        case .containing: ((seconds + Self.containingSlack) * Double(timescale)).rounded(.down)
        }
        let limit = Double(Int64.max / 4)
        self.init(value: scaled.isFinite ? Int64(max(-limit, min(limit, scaled))) : 0, timescale: timescale)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        lhs.value.multipliedFullWidth(by: Int64(rhs.timescale)) < rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        lhs.value.multipliedFullWidth(by: Int64(rhs.timescale)) == rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
    }

    public var description: String { "\(value)/\(timescale)" }
}
