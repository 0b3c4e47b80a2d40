/// The lines of a playlist (RFC 8216 section 4.1: UTF-8, lines ended by LF or CR LF), numbered from 1, without
/// blank lines.
struct HLSLines: Sequence {
    struct Line {
        var number: Int
        var text: Substring
        var location: String { "line \(number)" }

        /// The tag's name and its value after the `:` (empty when it has none), for a line that is a tag (`#EXT`).
        var tag: (name: Substring, value: Substring)? {
            guard text.hasPrefix("#EXT") else { return nil }
            guard let colon = text.firstIndex(of: ":") else { return (text, text[text.endIndex...]) }
            return (text[..<colon], text[text.index(after: colon)...])
        }

        /// Whether the line is a comment (a `#` line that is not a tag).
        var isComment: Bool { text.hasPrefix("#") && !text.hasPrefix("#EXT") }
    }

    let text: Substring

    func makeIterator() -> AnyIterator<Line> {
        var rest = text
        var number = 0
        return AnyIterator {
            while !rest.isEmpty {
                number += 1
                let end = rest.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) ?? rest.endIndex
                var line = rest[..<end]
                rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
                while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
                while let first = line.first, first == " " || first == "\t" { line = line.dropFirst() }
                if !line.isEmpty { return Line(number: number, text: line) }
            }
            return nil
        }
    }
}
