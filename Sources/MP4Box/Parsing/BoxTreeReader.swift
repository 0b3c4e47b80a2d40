/// Reads a run of sibling boxes, dispatching each through `BoxRegistry`.
enum BoxTreeReader {
    /// Child types whose siblings are numbered in paths (`trak[2]`).
    private static let numberedTypes: Set<FourCC> = ["trak", "traf", "trun", "moof"]

    /// Reads boxes until `reader` ends.
    static func readChildren(_ reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) -> [any Box] {
        var children: [any Box] = []
        var counts: [FourCC: Int] = [:]
        while !reader.isAtEnd {
            if children.count >= context.limits.maximumChildBoxes {
                throw reader.error(.limitExceeded, "more than \(context.limits.maximumChildBoxes) child boxes")
            }
            // Some writers pad a container with up to 7 zero bytes; a box needs at least 8.
            if reader.remaining < 8 {
                if let slice = try? reader.peekSlice(reader.remaining), slice.allSatisfy({ $0 == 0 }) {
                    context.note(reader, "\(reader.remaining) bytes of zero padding")
                    reader.skipToEnd()
                    break
                }
            }
            let available = UInt64(reader.remaining)
            let header = try BoxHeader.read(from: &reader, available: available)
            counts[header.type, default: 0] += 1
            let index = numberedTypes.contains(header.type) ? counts[header.type] : nil
            let childPath = reader.path.appending(header.type, index: index)
            let box = try readBox(header: header, reader: &reader, path: childPath, context: &context)
            children.append(box)
        }
        return children
    }

    /// Reads the payload of one box whose header has been read from `reader`.
    static func readBox(header: BoxHeader, reader: inout BoxReader, path: BoxPath,
                        context: inout ParseContext) throws(MP4Error) -> any Box {
        if path.depth > context.limits.maximumDepth {
            throw MP4Error(.limitExceeded, path: path.description, offset: header.offset,
                           "box nesting deeper than \(context.limits.maximumDepth)")
        }
        // `header.size` is known here: a size of 0 was resolved against the parent.
        let payloadSize = header.payloadSize ?? UInt64(reader.remaining)
        guard payloadSize <= UInt64(reader.remaining) else {
            throw MP4Error(.malformed, path: path.description, offset: header.offset,
                           "box size \(header.size ?? 0) exceeds the \(UInt64(reader.remaining) + UInt64(header.headerSize)) bytes its parent holds")
        }
        var child = try reader.child(byteCount: Int(payloadSize), path: path)
        return try BoxRegistry.parse(header: header, reader: &child, context: &context)
    }
}

extension BoxReader {
    /// The next `count` bytes without consuming them.
    func peekSlice(_ count: Int) throws(MP4Error) -> ArraySlice<UInt8> {
        try require(count, for: "peek")
        return storage[position..<position + count]
    }
}
