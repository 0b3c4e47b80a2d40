/// A parsed `Content-Range: bytes first-last/complete` header (RFC 9110, 14.4), with every offset a file offset.
struct ContentRange: Equatable {
    /// The first byte.
    var first: UInt64
    /// The last byte (inclusive).
    var last: UInt64
    /// The complete length, when the server knows it.
    var completeLength: UInt64?

    /// The range as a half-open range.
    var range: Range<UInt64> { first..<(last + 1) }

    /// The header value, as a server writes it.
    var text: String { "bytes \(first)-\(last)/\(completeLength.map(String.init) ?? "*")" }

    /// Parses the header value; nil when it is not a satisfied byte range.
    init?(_ value: String) {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        // Every offset must be a file offset (below 2^63), so `last + 1` and the byte count cannot overflow.
        guard bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), first <= last,
              last < .maximumFileOffset else { return nil }
        self.first = first
        self.last = last
        if parts[1] == "*" {
            completeLength = nil
        } else if let total = UInt64(parts[1]), total > last, total <= .maximumFileOffset {
            completeLength = total
        } else {
            return nil
        }
    }

    /// The complete length from an unsatisfied `bytes */complete` (sent with 416).
    static func unsatisfiedLength(_ value: String) -> UInt64? {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.hasPrefix("bytes */") else { return nil }
        return UInt64(trimmed.dropFirst(8)).flatMap { $0 <= .maximumFileOffset ? $0 : nil }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" || last == "\n" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
