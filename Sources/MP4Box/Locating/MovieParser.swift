/// Parses a whole file that is already in memory, synchronously: the entry point for fuzzing and small files.
public enum MovieParser {
    /// The movie in `bytes`: `MovieLocator`'s walk, with the whole file as its first read (so a file in memory and
    /// the same file read from anywhere give the same movie, by the same rules: the walk stops after moov unless the
    /// movie is fragmented, media cut short after moov keeps the index, every fragment is read). Nothing is copied
    /// but the index boxes.
    /// - Throws: `MP4Error` as `MovieLocator.next()` throws it: `notAMovie` when the first box is not one an MP4 or
    ///   QuickTime file starts with, `notFound` without moov, `needMoreBytes` for a file cut inside its index,
    ///   `malformed`, `unsupported`, `limitExceeded`.
    public static func parse(fileBytes bytes: [UInt8], limits: ParseLimits = ParseLimits()) throws(MP4Error) -> Movie {
        var options = MovieLocator.Options(fragmentReading: .all)
        options.headSize = max(bytes.count, BoxHeader.maximumSize)
        options.tailSize = 0
        options.keepsHeldBytes = false
        options.limits = limits
        let length = UInt64(bytes.count)
        return try MovieLocator(options: options, knownLength: length).run { request in
            let answer = ByteAnswer.answering(request, length: length) { range in
                let lower = Int(min(range.lowerBound, length))
                let upper = Int(min(max(range.upperBound, range.lowerBound), length))
                return lower == 0 && upper == bytes.count ? bytes : Array(bytes[lower..<upper])
            }
            return (answer, length)
        }.movie
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
