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
        /// To the unit that contains the instant (down), with a millionth of a unit of slack so that binary
        /// rounding of a decimal time (2.0 s arriving as 1.9999999999) does not fall into the unit before.
        case containing
    }

    /// The time `seconds` at `timescale`, rounded as `rounding` says and clamped to a representable range.
    public init(seconds: Double, timescale: UInt32, rounding: Rounding = .nearest) {
        let product = seconds * Double(timescale)
        let scaled = switch rounding {
        case .nearest: product.rounded()
        case .containing: (product + 1e-6).rounded(.down)
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
