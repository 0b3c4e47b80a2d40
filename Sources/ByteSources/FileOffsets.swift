/// File offsets and sizes computed from what a file or a server says: they clamp instead of trapping. For this
/// package's modules, not its users.
extension UInt64 {
    /// `self + other`, clamped to UInt64's range (for read sizes that options or the input make large).
    @inlinable
    package func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// The largest file offset a read may reach: 2^63 - 1, what `off_t` and HTTP lengths can express.
    package static let maximumFileOffset = UInt64(Int64.max)
}
