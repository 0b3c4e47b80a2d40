/// The first and the last bytes of a source, read together by `ByteSource.readEnds(head:tail:)`: where a movie's
/// index is, whether it comes before the media data (a faststart file) or after it (a phone's recording).
public struct FileEnds: Sendable, Equatable {
    /// The bytes from offset 0: the whole source when it is no longer than the head and tail asked for together.
    public var head: [UInt8]
    /// The last bytes that are not in `head` (empty when `head` reaches the end, or when the source could not say
    /// where its end is).
    public var tail: [UInt8]
    /// The file offset of `tail`'s first byte.
    public var tailOffset: UInt64
    /// The source's length, when the read showed it (a head shorter than asked, a tail, or the transport's answer).
    public var length: UInt64?

    /// Makes a record; `tail` is trimmed to the bytes after `head`.
    public init(head: [UInt8], tail: [UInt8], tailOffset: UInt64, length: UInt64?) {
        let headEnd = UInt64(head.count)
        if tailOffset < headEnd {
            let overlap = Int(min(headEnd - tailOffset, UInt64(tail.count)))
            self.tail = Array(tail[overlap...])
            self.tailOffset = tailOffset + UInt64(overlap)
        } else {
            self.tail = tail
            self.tailOffset = tailOffset
        }
        self.head = head
        self.length = length
    }
}

extension ByteSource {
    /// The default: one read when the known length is at most `head + tail`, else the head and the tail read at the
    /// same time (a source that cannot read a suffix without its length gives the head alone).
    public func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        let length = await knownLength
        if let length, length <= head.saturatingAdd(tail) {
            let bytes = try await read(0..<length)
            return FileEnds(head: bytes, tail: [], tailOffset: UInt64(bytes.count), length: UInt64(bytes.count))
        }
        async let first = read(0..<head)
        async let last = tail == 0 ? nil : suffixIfReadable(tail, length: length)
        let (headBytes, tailRead) = try await (first, last)
        if UInt64(headBytes.count) < head {
            // The whole file is in the head.
            return FileEnds(head: headBytes, tail: [], tailOffset: UInt64(headBytes.count), length: UInt64(headBytes.count))
        }
        guard let tailRead else {
            return FileEnds(head: headBytes, tail: [], tailOffset: UInt64(headBytes.count), length: await knownLength)
        }
        return FileEnds(head: headBytes, tail: tailRead.bytes, tailOffset: tailRead.offset,
                        length: tailRead.offset + UInt64(tailRead.bytes.count))
    }

    /// The last `count` bytes and their offset, or nil when the source cannot read a suffix without its length.
    private func suffixIfReadable(_ count: UInt64, length: UInt64?) async throws -> (bytes: [UInt8], offset: UInt64)? {
        if let length {
            return (try await read((length - count)..<length), length - count)
        }
        do {
            return try await readSuffix(count)
        } catch let error as ReadError where error.code == .suffixNeedsLength {
            return nil
        }
    }
}
