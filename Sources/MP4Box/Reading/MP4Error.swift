/// The one error type of the `MP4Box` layer: what went wrong, in which file, in which box, at which byte.
///
/// Its description is one sentence that says where, then what:
/// `movie.mp4, moov/trak[1]/mdia/minf/stbl/stsz at offset 5012: entry count 4000000000 exceeds box size 1024`.
public struct MP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; callers branch on this. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The input is not an MP4 or QuickTime file: its first box is not one such a file starts with.
        case notAMovie
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
        /// The bytes given to the locator do not fit what it asked for (an answer of another shape, ends that cannot
        /// be a file's). A source's own failures are its own errors (`ReadError`, `FetchError`).
        case readFailed
    }

    /// The kind of failure.
    public var code: Code
    /// The file path or URL, when the thrower knew it (the driver that reads for the locator fills it in).
    public var input: String?
    /// The box path, such as `moov/trak[1]/mdia/minf/stbl/stsz`, or empty at the top level.
    public var path: String
    /// The absolute byte offset in the file where the problem is.
    public var offset: UInt64
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, input: String? = nil, path: String, offset: UInt64, _ detail: String) {
        self.code = code
        self.input = input
        self.path = path
        self.offset = offset
        self.detail = detail
    }

    /// This error with the input filled in where it is missing.
    public func located(input: String?) -> MP4Error {
        var located = self
        located.input = self.input ?? input
        return located
    }

    /// Where (the input, the box path and the offset), then what. A source that could not be opened has no offset.
    public var description: String {
        var place: [String] = []
        if let input { place.append(input) }
        if !(code == .readFailed && path.isEmpty && offset == 0) {
            place.append(path.isEmpty ? "offset \(offset)" : "\(path) at offset \(offset)")
        }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
