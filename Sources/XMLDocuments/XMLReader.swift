/// A small, bounded XML 1.0 reader for the documents this package reads (DASH manifests, object stores' listings):
/// elements, attributes, character data, CDATA sections, the five predefined entities and character references;
/// comments, processing instructions and a document type declaration without an internal subset are skipped. Entity
/// declarations are refused (nothing the text declares is expanded, so no text can grow past its own bytes), nesting
/// is bounded by the caller's `maximumDepth`.
public struct XMLReader {
    private let bytes: [UInt8]
    private var position = 0
    private let maximumDepth: Int

    private init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The root element of the document in `text`.
    /// - Throws: `XMLError` `malformed` (with the line) for text that is not well-formed XML as far as this reader
    ///   checks, `unsupported` for an internal DTD subset, `limitExceeded` past `maximumDepth`.
    public static func root(of text: String, maximumDepth: Int) throws(XMLError) -> XMLElement {
        var reader = XMLReader(Array(text.utf8), maximumDepth: maximumDepth)
        return try reader.document()
    }

    private var line: String {
        "line \(1 + bytes[..<min(position, bytes.count)].lazy.filter { $0 == 10 }.count)"
    }

    private func failure(_ detail: String, code: XMLError.Code = .malformed) -> XMLError {
        XMLError(code, line: line, detail)
    }

    private func starts(with literal: String) -> Bool {
        let utf8 = literal.utf8
        guard position + utf8.count <= bytes.count else { return false }
        return zip(bytes[position...], utf8).allSatisfy { $0 == $1 }
    }

    /// Moves past the next `terminator`, or throws.
    private mutating func skip(past terminator: String, what: String) throws(XMLError) {
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8.count
                return
            }
            position += 1
        }
        throw failure("\(what) is not closed")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !(isSpace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"))
    }

    private mutating func skipSpace() {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
    }

    /// Skips what may stand outside the root element: space, comments, processing instructions, a DOCTYPE.
    private mutating func skipMisc() throws(XMLError) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!DOCTYPE") {
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                    if bytes[position] == UInt8(ascii: "[") {
                        throw failure("the document type declaration has an internal subset (entity declarations are not read)", code: .unsupported)
                    }
                    position += 1
                }
                guard position < bytes.count else { throw failure("the document type declaration is not closed") }
                position += 1
            } else {
                return
            }
        }
    }

    private mutating func document() throws(XMLError) -> XMLElement {
        if starts(with: "\u{FEFF}") { position += 3 }
        try skipMisc()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { throw failure("no root element") }
        let root = try element(depth: 1)
        try skipMisc()
        guard position == bytes.count else { throw failure("text follows the root element") }
        return root
    }

    private mutating func name() throws(XMLError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw failure("a name is missing") }
        return String(decoding: bytes[start ..< position], as: UTF8.self)
    }

    private static func localName(_ name: String) -> String {
        name.lastIndex(of: ":").map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// The element starting at `<`, with its content and end tag.
    private mutating func element(depth: Int) throws(XMLError) -> XMLElement {
        guard depth <= maximumDepth else { throw failure("elements nest deeper than \(maximumDepth)", code: .limitExceeded) }
        position += 1
        let qualifiedName = try name()
        var node = XMLElement(name: Self.localName(qualifiedName), attributes: [:], children: [], text: "")
        while true {
            skipSpace()
            guard position < bytes.count else { throw failure("the start tag of \(qualifiedName) is not closed") }
            if bytes[position] == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw failure("'/' inside the start tag of \(qualifiedName)")
                }
                position += 2
                return node
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            let attribute = Self.localName(try name())
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw failure("attribute \(attribute) of \(qualifiedName) has no value")
            }
            position += 1
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw failure("the value of attribute \(attribute) of \(qualifiedName) is not quoted")
            }
            let quote = bytes[position]
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != quote {
                guard bytes[position] != UInt8(ascii: "<") else { throw failure("'<' in the value of attribute \(attribute)") }
                position += 1
            }
            guard position < bytes.count else { throw failure("the value of attribute \(attribute) is not closed") }
            let value = try decoded(bytes[start ..< position])
            position += 1
            if node.attributes[attribute] == nil { node.attributes[attribute] = value }
        }
        // Content, up to the matching end tag.
        while true {
            guard position < bytes.count else { throw failure("element \(qualifiedName) is not closed") }
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                node.text += try decoded(bytes[start ..< position])
            } else if starts(with: "</") {
                position += 2
                let closing = try name()
                skipSpace()
                guard closing == qualifiedName, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw failure("end tag \(closing) does not close \(qualifiedName)")
                }
                position += 1
                return node
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>", what: "a CDATA section")
                node.text += String(decoding: bytes[start ..< position - 3], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!") {
                throw failure("a declaration inside element \(qualifiedName)")
            } else {
                node.children.append(try element(depth: depth + 1))
            }
        }
    }

    /// `raw` with entity and character references replaced.
    private func decoded(_ raw: ArraySlice<UInt8>) throws(XMLError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let semicolon = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw failure("'&' starts no reference")
            }
            let reference = String(decoding: raw[index + 1 ..< semicolon], as: UTF8.self)
            let scalar: Unicode.Scalar?
            switch reference {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                    scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if reference.hasPrefix("#") {
                    scalar = UInt32(reference.dropFirst()).flatMap(Unicode.Scalar.init)
                } else {
                    throw failure("entity &\(reference); is not one of XML's own", code: .unsupported)
                }
            }
            guard let scalar, scalar.value != 0 else { throw failure("reference &\(reference); names no character") }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
            index = semicolon + 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
