/// What identifies one version of a remote resource: its ETag and Last-Modified.
public struct Validator: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The ETag as sent (with quotes, maybe `W/`).
    public var etag: String?
    /// The Last-Modified date as sent.
    public var lastModified: String?

    /// Makes a validator; nil when the server sent neither header.
    public init?(etag: String?, lastModified: String?) {
        guard etag != nil || lastModified != nil else { return nil }
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The value for `If-Range`: a strong ETag, else Last-Modified (weak ETags are not allowed there).
    public var ifRangeValue: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// Whether a response's validator shows a different version than this one.
    public func differs(from other: Validator?) -> Bool {
        guard let other else { return false }
        if let etag, let otherTag = other.etag { return etag != otherTag }
        if let lastModified, let otherDate = other.lastModified { return lastModified != otherDate }
        return false
    }

    public var description: String { etag ?? lastModified ?? "-" }

    /// The validator as header lines (`ETag: ...`, then `Last-Modified: ...`), as `HTTPByteSource.version` begins;
    /// `init(headerLines:)` reads them back. Header values cannot hold a line break, so the lines are unambiguous.
    public var headerLines: String {
        [etag.map { "ETag: \($0)" }, lastModified.map { "Last-Modified: \($0)" }].compactMap(\.self).joined(separator: "\n")
    }

    /// The validator in `text` (as `headerLines` writes it; other lines are skipped); nil when it holds neither header.
    public init?(headerLines text: String) {
        var etag: String?
        var lastModified: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("ETag: ") { etag = String(line.dropFirst(6)) }
            if line.hasPrefix("Last-Modified: ") { lastModified = String(line.dropFirst(15)) }
        }
        self.init(etag: etag, lastModified: lastModified)
    }
}
