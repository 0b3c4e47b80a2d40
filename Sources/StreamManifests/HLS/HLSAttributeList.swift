/// An HLS attribute list (RFC 8216 section 4.2): `NAME=value` pairs separated by commas, where a value is a decimal
/// integer, a decimal float, a quoted string (which may hold commas), an enumerated string, a hexadecimal sequence or
/// a resolution (`1920x1080`).
struct HLSAttributeList {
    private var values: [String: (text: String, quoted: Bool)] = [:]

    /// Reads `text`.
    /// - Throws: `ManifestError` `malformed` for a pair without `=` or an unclosed quote.
    init(_ text: Substring, location: String) throws(ManifestError) {
        var rest = text
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw ManifestError(.malformed, location: location, "attribute '\(rest.trimmingASCIIWhitespace())' has no value")
            }
            let name = rest[..<equals].trimmingASCIIWhitespace()
            rest = rest[rest.index(after: equals)...]
            let value: String
            let quoted = rest.first == "\""
            if quoted {
                let afterQuote = rest.index(after: rest.startIndex)
                guard let close = rest[afterQuote...].firstIndex(of: "\"") else {
                    throw ManifestError(.malformed, location: location, "attribute \(name) has a quote that is not closed")
                }
                value = String(rest[afterQuote ..< close])
                rest = rest[rest.index(after: close)...]
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma].trimmingASCIIWhitespace()
                rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
            }
            guard !name.isEmpty else { throw ManifestError(.malformed, location: location, "an attribute has no name") }
            // The first of a repeated name wins, as the RFC allows a client to ignore the rest.
            if values[name] == nil { values[name] = (value, quoted) }
        }
    }

    /// The value of `name` as written (a quoted string without its quotes).
    func string(_ name: String) -> String? { values[name]?.text }

    /// The value of `name` as a non-negative decimal integer that fits `Int64`.
    func integer(_ name: String) -> Int64? {
        guard let text = values[name]?.text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }

    /// The value of `name` as a resolution, `<width>x<height>`.
    func resolution(_ name: String) -> (width: Int, height: Int)? {
        guard let text = values[name]?.text else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }
}
