/// Time arithmetic on values read from a file: it saturates at the ends of Int64 instead of trapping.
///
/// Times and offsets come from untrusted tables (an elst v1 media time can be
/// 2^63-1); Swift traps on overflow, which in a parser is a crash. For this package's modules, not its users.
extension Int64 {
    /// `self + other`, clamped to Int64's range.
    @inlinable
    package func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to Int64's range.
    @inlinable
    package func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// The distance from `self` to `other` as a magnitude, never trapping.
    @inlinable
    package func distanceMagnitude(to other: Int64) -> UInt64 {
        self > other ? UInt64(bitPattern: self &- other) : UInt64(bitPattern: other &- self)
    }
}

/// Offsets and sizes within this module. `ByteSources` has the same two for the byte sources and the modules above
/// them; these stay internal, so a module that imports both sees one of each.
extension UInt64 {
    /// `self + other`, clamped to UInt64's range (for read sizes that options or the input make large).
    func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// The largest file offset a box may end at: 2^63 - 1, what `off_t` can express. A box
    /// that claims to end past it is malformed, so offsets computed from box ends never overflow.
    static let maximumFileOffset = UInt64(Int64.max)
}
