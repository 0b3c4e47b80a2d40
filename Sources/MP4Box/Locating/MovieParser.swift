/// Parses a whole file that is already in memory, synchronously: the entry point for fuzzing and small files.
public enum MovieParser {
    /// Parses every top-level box of `bytes` and builds the movie.
    /// - Throws: `MP4Error`: `notFound` without moov, `needMoreBytes` for a cut-off file, `malformed`, `unsupported`, `limitExceeded`.
    public static func parse(fileBytes bytes: [UInt8], limits: ParseLimits = ParseLimits()) throws(MP4Error) -> Movie {
        var reader = BoxReader(bytes: bytes, limits: limits)
        var context = ParseContext(limits: limits)
        var parts = TopLevelBoxes()
        while !reader.isAtEnd {
            let header = try BoxHeader.read(from: &reader, available: UInt64(reader.remaining) + 8)
            guard let size = header.size, size - UInt64(header.headerSize) <= UInt64(reader.remaining) else {
                throw MP4Error(.needMoreBytes, path: header.type.description, offset: header.offset,
                               "box size \(header.size ?? 0) runs past the end of the file at \(reader.endFileOffset)")
            }
            let box = try BoxTreeReader.readBox(header: header, reader: &reader, path: BoxPath().appending(header.type),
                                                context: &context)
            try parts.add(box, limits: limits)
        }
        parts.diagnostics.append(contentsOf: context.diagnostics)
        return try Movie(parts: parts, limits: limits)
    }

    /// Builds the movie again from the index boxes a locator read (`MovieLocator.Result.indexBytes`, with those of
    /// fragments read later), without the file: each span holds whole top-level boxes at their file offsets.
    /// With `fragmentsOnDemand` (as the locator read them), a segment index of the video track gives the movie its
    /// `fragmentIndex`, and the moofs among the boxes are its read subsegments.
    /// - Throws: `MP4Error` as `parse(fileBytes:limits:)`, `malformed` for a span that does not end with a box.
    public static func parse(indexBoxes: HeldBytes, fragmentsOnDemand: Bool,
                             limits: ParseLimits = ParseLimits()) throws(MP4Error) -> Movie {
        var parts = TopLevelBoxes()
        var diagnostics: [ParseDiagnostic] = []
        for span in indexBoxes.spans {
            var position = 0
            while position < span.bytes.count {
                let offset = span.offset + UInt64(position)
                var reader = BoxReader(bytes: Array(span.bytes[position..<min(span.bytes.count, position + BoxHeader.maximumSize)]),
                                       fileOffset: offset, limits: limits)
                let header = try BoxHeader.read(from: &reader, available: UInt64(span.bytes.count - position))
                guard let size = header.size, size <= UInt64(span.bytes.count - position) else {
                    throw MP4Error(.malformed, path: header.type.description, offset: offset,
                                   "box size \(header.size ?? 0) runs past the index bytes kept")
                }
                let box = try parseTopLevelBox(bytes: Array(span.bytes[position..<position + Int(size)]), fileOffset: offset,
                                               limits: limits, diagnostics: &diagnostics)
                try parts.add(box, limits: limits)
                position += Int(size)
            }
        }
        parts.diagnostics.append(contentsOf: diagnostics)
        guard fragmentsOnDemand, let index = try MovieLocator.fragmentIndex(of: parts, limits: limits) else {
            return try Movie(parts: parts, limits: limits)
        }
        let moofs = Set(parts.fragments.map(\.header.offset))
        let read = index.subsegments.indices.filter { moofs.contains(index.subsegments[$0].byteRange.lowerBound) }
        return try Movie(parts: parts, limits: limits, fragmentIndex: index, readSubsegments: read)
    }

    /// Parses one box from `bytes` (its whole extent, header first) at file offset `fileOffset`, inside `parent`.
    static func parseBox(bytes: [UInt8], fileOffset: UInt64, parent: BoxPath, limits: ParseLimits,
                         diagnostics: inout [ParseDiagnostic]) throws(MP4Error) -> any Box {
        var reader = BoxReader(bytes: bytes, fileOffset: fileOffset, path: parent, limits: limits)
        var context = ParseContext(limits: limits)
        let header = try BoxHeader.read(from: &reader, available: UInt64(bytes.count))
        let box = try BoxTreeReader.readBox(header: header, reader: &reader, path: parent.appending(header.type), context: &context)
        diagnostics.append(contentsOf: context.diagnostics)
        return box
    }

    /// Parses one top-level box (moov, moof, sidx, mfra, ftyp) from `bytes` starting at file offset `fileOffset`.
    static func parseTopLevelBox(bytes: [UInt8], fileOffset: UInt64, limits: ParseLimits,
                                 diagnostics: inout [ParseDiagnostic]) throws(MP4Error) -> any Box {
        var reader = BoxReader(bytes: bytes, fileOffset: fileOffset, limits: limits)
        var context = ParseContext(limits: limits)
        let header = try BoxHeader.read(from: &reader, available: UInt64(bytes.count))
        let box = try BoxTreeReader.readBox(header: header, reader: &reader, path: BoxPath().appending(header.type), context: &context)
        diagnostics.append(contentsOf: context.diagnostics)
        return box
    }
}
