/// The one error type of the `Matroska` layer: what is wrong with a Matroska or WebM file, and where in it.
///
/// Its description says where, then what: `clip.webm, Segment/Cues/CuePoint, byte 4013: CueTime is missing`.
public struct MatroskaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; callers branch on this. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The bytes are not a Matroska file: no EBML header, or a DocType other than `matroska` and `webm`.
        case notMatroska
        /// The file contradicts RFC 8794 or RFC 9559 (an element larger than its parent, a size that cannot be read,
        /// a mandatory element missing).
        case malformed
        /// A valid file this reader does not read: no video track, encrypted or compressed frames, a codec without
        /// a decoder here.
        case unsupported
        /// An element or a count passed a `MatroskaLimits` cap.
        case limitExceeded
        /// A source's answer does not fit what was asked for.
        case readFailed
    }

    /// The kind of failure.
    public var code: Code
    /// The URL or path of the file, when the reader was told it (`located(input:)`).
    public var input: String?
    /// The element path where it was found (`Segment/Tracks/TrackEntry`), when there is one.
    public var path: String?
    /// The file offset of the element where it was found, when there is one.
    public var offset: UInt64?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, path: String? = nil, offset: UInt64? = nil, _ detail: String) {
        self.code = code
        self.path = path
        self.offset = offset
        self.detail = detail
    }

    /// The error with `input` named, unless it names one already.
    public func located(input: String?) -> MatroskaError {
        var located = self
        located.input = self.input ?? input
        return located
    }

    /// Where (the input, element path, byte offset), then what.
    public var description: String {
        let place = [input, path, offset.map { "byte \($0)" }].compactMap { $0 }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
