/// A parsed box: every box type keeps the header it was read from.
public protocol Box: Sendable {
    /// The header: type, offset and size.
    var header: BoxHeader { get }
}

/// A box type that the box registry can parse from its payload.
protocol ParsableBox: Box {
    /// Parses the payload in `reader` (which ends at the box's end).
    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error)
}

/// A box this parser has no type for, kept with its location.
public struct UnknownBox: Box {
    public let header: BoxHeader
}

/// Something worth knowing about the input that did not stop the parse.
public struct ParseDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The box path.
    public var path: String
    /// The absolute file offset.
    public var offset: UInt64
    /// What was seen.
    public var detail: String

    public var description: String {
        (path.isEmpty ? "" : path + ": ") + "\(detail) at offset \(offset)"
    }
}

/// State carried through one parse: limits, diagnostics, and the handler of the track being read.
struct ParseContext {
    var limits: ParseLimits
    var diagnostics: [ParseDiagnostic] = []
    /// The handler type of the current `mdia`, so `stsd` knows whether entries are visual or audio.
    var handlerType: FourCC?

    init(limits: ParseLimits) {
        self.limits = limits
    }

    /// Records leftover bytes after a box's fields: an error when strict, a diagnostic otherwise.
    mutating func finish(_ reader: BoxReader) throws(MP4Error) {
        guard !reader.isAtEnd else { return }
        let detail = "\(reader.remaining) unread bytes after the box's fields"
        if limits.strict {
            throw reader.error(.malformed, detail)
        }
        diagnostics.append(ParseDiagnostic(path: reader.path.description, offset: reader.fileOffset, detail: detail))
    }

    /// Records a diagnostic.
    mutating func note(_ reader: BoxReader, _ detail: String) {
        diagnostics.append(ParseDiagnostic(path: reader.path.description, offset: reader.fileOffset, detail: detail))
    }
}
