/// The entry point: recognises a playlist or manifest by its content and reads it.
public enum StreamManifest {
    /// What the first bytes of a resource say it is: an HLS playlist (`#EXTM3U` after an optional byte-order mark
    /// and space), a DASH manifest (an XML document whose root element is `MPD`, seen within `prefix`), or neither.
    /// Give at least the first 1,024 bytes where there are that many.
    public static func format(of prefix: some Collection<UInt8>) -> StreamPresentation.Format? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
        if bytes.starts(with: Array("#EXTM3U".utf8)) { return .hls }
        guard bytes.first == UInt8(ascii: "<") else { return nil }
        // The root element's name, past the XML declaration, comments and a DOCTYPE.
        let text = String(decoding: bytes.prefix(4_096), as: UTF8.self)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: open)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") {
                let terminator = tag.hasPrefix("!--") ? "-->" : ">"
                guard let close = tag.firstRange(of: terminator) else { return nil }
                rest = tag[close.upperBound...]
                continue
            }
            let name = tag.prefix { !($0 == " " || $0 == ">" || $0 == "/" || $0 == "\n" || $0 == "\r" || $0 == "\t") }
            let local = name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? name
            return local == "MPD" ? .dash : nil
        }
        return nil
    }

    /// The playlist or manifest in `text`, read from `url` (references in it are resolved against it).
    /// - Throws: `ManifestError`: `notAManifest` when the text is neither, `limitExceeded` when it is longer than
    ///   `limits.maximumTextBytes`, and the errors of the format's reader.
    public static func read(_ text: String, url: String?, limits: ManifestLimits = ManifestLimits()) throws(ManifestError)
        -> StreamPresentation {
        guard text.utf8.count <= limits.maximumTextBytes else {
            throw ManifestError(.limitExceeded, url: url, "the text is longer than \(limits.maximumTextBytes) bytes")
        }
        switch format(of: text.utf8.prefix(4_096)) {
        case .hls: return try HLSPlaylistReader.read(text, url: url, limits: limits)
        case .dash: return try DASHManifestReader.read(text, url: url, limits: limits)
        case .matroska, .transportStream, nil:  // files that are no text: `format(of:)` never says so
            let start = String(text.prefix(16).unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "." })
            throw ManifestError(.notAManifest, url: url, "neither an HLS playlist nor a DASH manifest: it starts '\(start)'")
        }
    }
}
