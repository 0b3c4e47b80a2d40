/// The one way byte ranges are written in messages and errors: the first and the last byte, inclusive, as HTTP's
/// Range and Content-Range headers write them (`100-199` for `100..<200`).
public enum ByteRange {
    /// `first-last`, or `none at N` for an empty range.
    public static func text(_ range: Range<UInt64>) -> String {
        range.isEmpty ? "none at \(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound - 1)"
    }
}
