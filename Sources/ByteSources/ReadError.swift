/// A read that failed in one of this module's sources: what, in which input, at which byte.
///
/// Its description says where, then what: `movie.mp4: cannot open the file: no such file or directory`,
/// `movie.mp4, offset 4096: cannot read bytes 4096-8191: input/output error`.
public struct ReadError: ByteSourceError, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added (a `switch` over it in another module needs an `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The input could not be opened, or its length not learnt.
        case cannotOpen
        /// Bytes of an open input could not be read.
        case cannotRead
        /// The source cannot read the end of the input without knowing its length.
        case suffixNeedsLength
    }

    /// The kind of failure.
    public var code: Code
    /// The path or URL, when the source has one.
    public var input: String?
    /// The first byte that could not be read; nil for failures before any read.
    public var offset: UInt64?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, input: String?, offset: UInt64? = nil, _ detail: String) {
        self.code = code
        self.input = input
        self.offset = offset
        self.detail = detail
    }

    /// A failed read says nothing about the version of the bytes.
    public var isResourceChanged: Bool { false }

    /// Where (the input and the offset), then what.
    public var description: String {
        let place = [input, offset.map { "offset \($0)" }].compactMap { $0 }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
