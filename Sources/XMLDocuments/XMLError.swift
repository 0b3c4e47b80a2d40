/// Why a text is not an XML document `XMLReader` reads, and where.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// Not well-formed XML, as far as the reader checks.
        case malformed
        /// Well-formed, but using what the reader refuses (an internal DTD subset).
        case unsupported
        /// Elements nest past the caller's limit.
        case limitExceeded
    }

    public var code: Code
    /// Where: `line N`.
    public var line: String
    /// What was found.
    public var detail: String

    /// An error.
    public init(_ code: Code, line: String, _ detail: String) {
        self.code = code
        self.line = line
        self.detail = detail
    }

    public var description: String { "\(code.rawValue) at \(line): \(detail)" }
}
