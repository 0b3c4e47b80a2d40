/// The bytes the locator has read so far, and the log of reads: the file's two ends, read together first, and one
/// contiguous window over whatever was read since (replaced as the walk moves on, so memory stays bounded).
///
/// It does no I/O. What it lacks it asks for by throwing `BytesNeeded` (the ends, or one range); the answer is put in
/// place when it arrives (`receive(_:for:knownLength:)`), and the step that asked runs again and finds it held.
struct ReadWindow: Sendable {
    let limits: ParseLimits
    /// The head and the tail of the file, from the first read.
    private(set) var ends = HeldBytes()
    /// Whether the ends have come.
    private(set) var endsRead = false
    /// The file offset of `bytes[0]`.
    private(set) var offset: UInt64 = 0
    private(set) var bytes: [UInt8] = []
    /// The file length, once known.
    var length: UInt64?
    private(set) var reads: [MovieLocator.Read] = []
    /// The range load asked for last, and how its answer joins the window.
    private var pending: PendingLoad?
    /// The size of the last read of a walk that reads ahead growing (`bytes(_:allowShort:readAhead:growingTo:)`),
    /// 0 after any other read: the next read of the walk asks for at least twice as many.
    private(set) var walkReadSize: UInt64 = 0

    private struct PendingLoad: Sendable {
        /// The range the caller wanted.
        let range: Range<UInt64>
        /// The range asked for: what of `range` is not held.
        let readRange: Range<UInt64>
        /// Whether the answer extends the window (else it replaces it).
        let extending: Bool
        /// A span of the ends that `range` runs into, taken after the answer.
        let heldEnd: HeldBytes.Span?
        /// Whether it is a read of a growing walk.
        let growing: Bool
    }

    init(limits: ParseLimits, length: UInt64?) {
        self.limits = limits
        self.length = length
    }

    /// Logs a read made outside the window (concurrent fragment probes).
    mutating func record(range: Range<UInt64>, byteCount: Int) {
        reads.append(MovieLocator.Read(range: range, byteCount: byteCount))
    }

    /// Asks for the first `head` and last `tail` bytes of the file in one go, unless they have come.
    func loadEnds(head: UInt64, tail: UInt64) throws {
        guard endsRead else { throw BytesNeeded(request: .ends(head: head, tail: tail)) }
    }

    /// Takes the answer to the request this window made (`loadEnds` or `load`).
    /// - Throws: `MP4Error` `readFailed` for an answer that is not one to the request.
    mutating func receive(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?) throws(MP4Error) {
        switch (request, answer) {
        case (.ends(let head, _), .ends(let headBytes, let tailBytes, let tailOffset, let readLength)):
            try takeEnds(head: head, headBytes: headBytes, tailBytes: tailBytes, tailOffset: tailOffset,
                         readLength: readLength, knownLength: knownLength)
        case (.range(let range), .bytes(let parts)) where parts.count == 1 && pending?.readRange == range:
            take(Array(parts[0].prefix(range.count)), knownLength: knownLength)
        default:
            throw MP4Error(.readFailed, path: "", offset: 0, "the source's answer does not have the shape of \(request)")
        }
    }

    private mutating func takeEnds(head: UInt64, headBytes: [UInt8], tailBytes: [UInt8], tailOffset: UInt64,
                                   readLength: UInt64?, knownLength: UInt64?) throws(MP4Error) {
        // Offsets past the largest a file can have, or past the length the answer gives, are not a file's ends.
        let (tailEnd, overflow) = tailOffset.addingReportingOverflow(UInt64(tailBytes.count))
        guard !overflow, tailEnd <= .maximumFileOffset,
              readLength.map({ UInt64(headBytes.count) <= $0 && (tailBytes.isEmpty || tailEnd <= $0) }) ?? true else {
            throw MP4Error(.readFailed, path: "", offset: 0,
                           "the source's ends do not fit in a file (tail at \(tailOffset), \(tailBytes.count) bytes, length \(readLength.map(String.init) ?? "unknown"))")
        }
        // The head asked for: the whole file when it came back whole from a source of known length.
        let headEnd = readLength.map { min($0, max(head, UInt64(headBytes.count))) } ?? head
        if !tailBytes.isEmpty, tailOffset == UInt64(headBytes.count) {
            // A tail that starts where the head ends (two requests side by side, the length not known before): the
            // whole file from one read, as from a source that knew its length.
            reads.append(MovieLocator.Read(range: 0..<tailEnd, byteCount: Int(tailEnd)))
        } else {
            reads.append(MovieLocator.Read(range: 0..<headEnd, byteCount: headBytes.count))
            if !tailBytes.isEmpty {
                reads.append(MovieLocator.Read(range: tailOffset..<tailEnd, byteCount: tailBytes.count))
            }
        }
        if let readLength {
            length = readLength
        } else if length == nil {
            length = knownLength
        }
        ends.insert(headBytes, at: 0)
        ends.insert(tailBytes, at: tailOffset)
        endsRead = true
    }

    /// Whether `range` is inside the bytes held.
    func contains(_ range: Range<UInt64>) -> Bool {
        (range.lowerBound >= offset && range.upperBound <= offset + UInt64(bytes.count)) || ends.bytes(range) != nil
    }

    /// Everything read and held now: the ends and the window.
    var held: HeldBytes {
        var all = ends
        all.insert(bytes, at: offset)
        return all
    }

    /// Makes `range` (clamped to the known length) the window, or extends the window when it starts inside it,
    /// asking for what is not held. Bytes the ends already hold at the range's end are not asked for again.
    mutating func load(_ range: Range<UInt64>, growing: Bool = false) throws {
        var range = range
        if let length { range = min(range.lowerBound, length)..<min(range.upperBound, length) }
        guard !range.isEmpty else { return }
        if !(range.lowerBound >= offset && range.lowerBound <= offset + UInt64(bytes.count)),
           let start = ends.spans.first(where: { $0.offset <= range.lowerBound && range.lowerBound <= $0.range.upperBound }) {
            // Continue from the end held (a moov longer than the head): ask only for what follows it.
            offset = start.offset
            bytes = start.bytes
        }
        let windowEnd = offset + UInt64(bytes.count)
        let extending = range.lowerBound >= offset && range.lowerBound <= windowEnd && range.upperBound > windowEnd
        var readRange = extending ? windowEnd..<range.upperBound : range
        // A tail already held that the range runs into: ask only up to it, and take the rest from it.
        let heldEnd = ends.spans.first { $0.offset > readRange.lowerBound && $0.offset < readRange.upperBound }
        if let heldEnd { readRange = readRange.lowerBound..<heldEnd.offset }
        pending = PendingLoad(range: range, readRange: readRange, extending: extending, heldEnd: heldEnd, growing: growing)
        throw BytesNeeded(request: .range(readRange))
    }

    /// Puts the answer to the pending load in the window.
    private mutating func take(_ data: [UInt8], knownLength: UInt64?) {
        guard let load = pending else { return }
        pending = nil
        reads.append(MovieLocator.Read(range: load.readRange, byteCount: data.count))
        walkReadSize = load.growing ? UInt64(load.readRange.count) : 0
        if data.count < load.readRange.count {
            // A short read means the file ends there.
            length = load.readRange.lowerBound + UInt64(data.count)
        } else if length == nil, let knownLength {
            length = knownLength
        }
        if load.extending {
            bytes.append(contentsOf: data)
        } else {
            offset = load.readRange.lowerBound
            bytes = data
        }
        if let heldEnd = load.heldEnd, data.count == load.readRange.count {
            bytes.append(contentsOf: heldEnd.bytes.prefix(Int(min(UInt64(heldEnd.bytes.count), load.range.upperBound - heldEnd.offset))))
        }
    }

    /// Up to `maximum` bytes from `start` that are already held, without reading; nil if `start` is not held.
    func cachedBytes(from start: UInt64, maximum: Int) -> [UInt8]? {
        let end = offset + UInt64(bytes.count)
        if start >= offset, start < end {
            let upper = min(end, start + UInt64(maximum))
            return Array(bytes[Int(start - offset)..<Int(upper - offset)])
        }
        guard let span = ends.spans.first(where: { $0.range.contains(start) }) else { return nil }
        let upper = min(span.range.upperBound, start + UInt64(maximum))
        return Array(span.bytes[Int(start - span.offset)..<Int(upper - span.offset)])
    }

    /// The bytes of `range`, asking for what is missing; with `allowShort`, fewer at the end of the file; nil if none.
    ///
    /// A read for a missing range asks for at least `readAhead` bytes, so that the next headers come with it. With
    /// `limit` (the end of the box being walked), the read is one of a walk that reads ahead growing: it asks for at
    /// least `minimum` bytes and twice the walk's last read (`walkReadSize`), up to `limit`, so that a walk
    /// over many tiny boxes costs a number of reads that grows with the logarithm of their bytes, not with their count.
    mutating func bytes(_ range: Range<UInt64>, allowShort: Bool, readAhead: UInt64,
                        growingTo limit: UInt64? = nil, minimum: UInt64 = 0) throws -> [UInt8]? {
        if let held = ends.bytes(range) { return held }
        if !contains(range), !reachesEnd(range) {
            var end = max(range.upperBound, range.lowerBound.saturatingAdd(readAhead))
            if let limit {
                // The read starts at the window's end when it extends the window, else at the range.
                let windowEnd = offset + UInt64(bytes.count)
                let start = range.lowerBound >= offset && range.lowerBound <= windowEnd ? windowEnd : range.lowerBound
                let size = max(minimum, walkReadSize.saturatingAdd(walkReadSize))
                end = max(end, min(limit, start.saturatingAdd(size)))
            }
            try load(range.lowerBound..<end, growing: limit != nil)
        }
        let start = range.lowerBound
        guard start >= offset else { return nil }
        let available = offset + UInt64(bytes.count)
        guard start < available || range.isEmpty else { return nil }
        let end = min(range.upperBound, available)
        if end < range.upperBound && !allowShort { return nil }
        return Array(bytes[Int(start - offset)..<Int(end - offset)])
    }

    /// Whether the window holds `range` up to the end of the file (a read found the end there): asking again would
    /// bring nothing more.
    private func reachesEnd(_ range: Range<UInt64>) -> Bool {
        guard let length, range.lowerBound >= offset else { return false }
        return offset + UInt64(bytes.count) >= min(range.upperBound, length)
    }
}
