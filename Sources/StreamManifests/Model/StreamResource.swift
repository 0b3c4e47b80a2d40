/// Bytes a stream names: a URL and, where only part of it is meant, which bytes.
public struct StreamResource: Sendable, Hashable, CustomStringConvertible {
    /// The absolute URL (resolved against the manifest's).
    public var url: String
    /// The bytes of the resource meant; nil for all of them. The readers refuse a range that ends past
    /// `maximumOffset`.
    public var byteRange: Range<UInt64>?

    /// The largest offset a byte range may end at: a file's largest (2^63 - 1), so a range's length is an `Int`.
    public static let maximumOffset = UInt64(Int64.max)

    /// A resource: `url`, and `byteRange` where only those bytes are meant.
    public init(url: String, byteRange: Range<UInt64>? = nil) {
        self.url = url
        self.byteRange = byteRange
    }

    /// The URL, and the bytes as HTTP writes them (`first-last`).
    public var description: String {
        guard let byteRange else { return url }
        return byteRange.isEmpty ? "\(url) (no bytes)" : "\(url) bytes \(byteRange.lowerBound)-\(byteRange.upperBound - 1)"
    }
}
