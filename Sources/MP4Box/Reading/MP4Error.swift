/// The one error type of the `MP4Box` layer: what went wrong, in which box, at which byte.
///
/// Its description reads like
/// `moov/trak[1]/mdia/minf/stbl/stsz: entry count 4000000000 exceeds box size 1024 at offset 5012`.
public struct MP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; callers branch on this.
    public enum Code: String, Sendable, Equatable {
        /// The input ended before the structure did (a truncated file, or a read that must be extended).
        case needMoreBytes
        /// The bytes contradict the specification or each other.
        case malformed
        /// Valid input that this parser does not handle.
        case unsupported
        /// A count or size passed a `ParseLimits` cap.
        case limitExceeded
        /// The file has no movie box (or no track of the kind asked for).
        case notFound
        /// The byte source failed to read.
        case readFailed
    }

    /// The kind of failure.
    public var code: Code
    /// The box path, such as `moov/trak[1]/mdia/minf/stbl/stsz`, or empty at the top level.
    public var path: String
    /// The absolute byte offset in the file where the problem is.
    public var offset: UInt64
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, path: String, offset: UInt64, _ detail: String) {
        self.code = code
        self.path = path
        self.offset = offset
        self.detail = detail
    }

    public var description: String {
        let place = path.isEmpty ? "" : path + ": "
        return "\(place)\(detail) at offset \(offset)"
    }
}
