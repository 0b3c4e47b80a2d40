/// A `multipart/byteranges` body (RFC 9110, 14.6): what a server answers to a request for several ranges at once,
/// each part with its own Content-Range. Parsed from the whole body in memory (its size is bounded by the ranges
/// asked for), with each part's length taken from its Content-Range, so a boundary inside the data cannot confuse it.
struct MultipartByteRanges {
    /// One part: its range and its bytes.
    struct Part: Equatable {
        var contentRange: ContentRange
        var bytes: [UInt8]
    }

    /// Why a body is not a well-formed `multipart/byteranges`.
    struct Malformed: Error, Equatable {
        var detail: String
    }

    /// The parts, in the order sent.
    private(set) var parts: [Part] = []

    /// The boundary parameter of a `Content-Type: multipart/byteranges; boundary=...` value, nil for another type.
    static func boundary(contentType: String) -> String? {
        let fields = contentType.split(separator: ";").map { String($0).trimmingWhitespace() }
        guard let type = fields.first, type.lowercased() == "multipart/byteranges" else { return nil }
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Parses `body`, delimited by `boundary`, with at most `maximumParts` parts.
    /// - Throws: `Malformed` naming what is wrong and at which body offset.
    init(body: [UInt8], boundary: String, maximumParts: Int) throws(Malformed) {
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = Self.find(delimiter, in: body, from: 0) else {
            throw Malformed(detail: "no boundary in the body")
        }
        while true {
            position += delimiter.count
            if Self.matches(Array("--".utf8), in: body, at: position) { return }  // the close delimiter
            position = try Self.skipLineEnd(in: body, at: position)
            var contentRange: ContentRange?
            while true {  // header lines, up to an empty line
                guard let lineEnd = Self.find([13, 10], in: body, from: position) else {
                    throw Malformed(detail: "part headers at byte \(position) do not end")
                }
                if lineEnd == position {
                    position += 2
                    break
                }
                let line = String(decoding: body[position..<lineEnd], as: UTF8.self)
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2, String(pair[0]).trimmingWhitespace().lowercased() == "content-range" {
                    contentRange = ContentRange(String(pair[1]))
                    if contentRange == nil { throw Malformed(detail: "unusable content-range \(line) at byte \(position)") }
                }
                position = lineEnd + 2
            }
            guard let contentRange else { throw Malformed(detail: "part at byte \(position) has no content-range") }
            guard parts.count < maximumParts else { throw Malformed(detail: "more than \(maximumParts) parts") }
            let count = contentRange.range.count
            guard count <= body.count - position else {
                throw Malformed(detail: "part at byte \(position) holds fewer than the \(count) bytes of its content-range")
            }
            parts.append(Part(contentRange: contentRange, bytes: Array(body[position..<position + count])))
            position += count
            position = try Self.skipLineEnd(in: body, at: position)
            guard Self.matches(delimiter, in: body, at: position) else {
                throw Malformed(detail: "no boundary after the part that ends at byte \(position)")
            }
        }
    }

    private static func skipLineEnd(in body: [UInt8], at position: Int) throws(Malformed) -> Int {
        var end = position
        while end < body.count, body[end] == 32 || body[end] == 9 { end += 1 }  // transport padding
        guard matches([13, 10], in: body, at: end) else { throw Malformed(detail: "no line end at byte \(position)") }
        return end + 2
    }

    private static func matches(_ pattern: [UInt8], in body: [UInt8], at position: Int) -> Bool {
        position <= body.count - pattern.count && body[position..<position + pattern.count].elementsEqual(pattern)
    }

    private static func find(_ pattern: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        var position = start
        while position <= body.count - pattern.count {
            if body[position] == pattern[0], matches(pattern, in: body, at: position) { return position }
            position += 1
        }
        return nil
    }
}
