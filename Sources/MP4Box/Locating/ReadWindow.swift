/// The bytes the locator has read so far, and the log of reads: the file's two ends, read together first, and one
/// contiguous window over whatever was read since (replaced as the walk moves on, so memory stays bounded).
///
/// It does no I/O: what it lacks it takes from `supplied`, the answers of the step under way, and where those end
/// it throws `BytesNeeded` with the read it would make.
struct ReadWindow: Sendable {
    let limits: ParseLimits
    /// The head and the tail of the file, from the first read.
    private(set) var ends = HeldBytes()
    /// The file offset of `bytes[0]`.
    private(set) var offset: UInt64 = 0
    private(set) var bytes: [UInt8] = []
    /// The file length, once known.
    var length: UInt64?
    private(set) var reads: [MovieLocator.Read] = []
    /// The answers to the reads of the step under way.
    var supplied = SuppliedBytes()

    init(limits: ParseLimits, length: UInt64?) {
        self.limits = limits
        self.length = length
    }

    /// Logs a read made outside the window (concurrent fragment probes).
    mutating func record(range: Range<UInt64>, byteCount: Int) {
        reads.append(MovieLocator.Read(range: range, byteCount: byteCount))
    }

    /// Reads the first `head` and last `tail` bytes of the file in one go and keeps them.
    mutating func loadEnds(head: UInt64, tail: UInt64) throws {
        let read = try supplied.ends(head: head, tail: tail)
        // The head asked for: the whole file when it came back whole from a source of known length.
        let headEnd = read.length.map { min($0, max(head, UInt64(read.head.count))) } ?? head
        if !read.tail.isEmpty, read.tailOffset == UInt64(read.head.count) {
            // A tail that starts where the head ends (two requests side by side, the length not known before): the
            // whole file from one read, as from a source that knew its length.
            let end = read.tailOffset + UInt64(read.tail.count)
            reads.append(MovieLocator.Read(range: 0..<end, byteCount: Int(end)))
        } else {
            reads.append(MovieLocator.Read(range: 0..<headEnd, byteCount: read.head.count))
            if !read.tail.isEmpty {
                reads.append(MovieLocator.Read(range: read.tailOffset..<read.tailOffset + UInt64(read.tail.count),
                                               byteCount: read.tail.count))
            }
        }
        if let known = read.length {
            length = known
        } else if length == nil {
            length = read.knownLength
        }
        ends.insert(read.head, at: 0)
        ends.insert(read.tail, at: read.tailOffset)
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

    /// Reads `range` (clamped to the known length) and makes it the window, or extends the window when it starts
    /// inside it. Bytes the ends already hold at the range's end are not read again.
    mutating func load(_ range: Range<UInt64>) throws {
        var range = range
        if let length { range = min(range.lowerBound, length)..<min(range.upperBound, length) }
        guard !range.isEmpty else { return }
        if !(range.lowerBound >= offset && range.lowerBound <= offset + UInt64(bytes.count)),
           let start = ends.spans.first(where: { $0.offset <= range.lowerBound && range.lowerBound <= $0.range.upperBound }) {
            // Continue from the end held (a moov longer than the head): read only what follows it.
            offset = start.offset
            bytes = start.bytes
        }
        let windowEnd = offset + UInt64(bytes.count)
        let extending = range.lowerBound >= offset && range.lowerBound <= windowEnd && range.upperBound > windowEnd
        var readRange = extending ? windowEnd..<range.upperBound : range
        // A tail already held that the range runs into: read only up to it, and take the rest from it.
        let heldEnd = ends.spans.first { $0.offset > readRange.lowerBound && $0.offset < readRange.upperBound }
        if let heldEnd { readRange = readRange.lowerBound..<heldEnd.offset }
        let (data, knownLength) = try supplied.bytes(readRange)
        reads.append(MovieLocator.Read(range: readRange, byteCount: data.count))
        if data.count < readRange.count {
            // A short read means the file ends there.
            length = readRange.lowerBound + UInt64(data.count)
        } else if length == nil, let known = knownLength {
            length = known
        }
        if extending {
            bytes.append(contentsOf: data)
        } else {
            offset = readRange.lowerBound
            bytes = data
        }
        if let heldEnd, data.count == readRange.count {
            bytes.append(contentsOf: heldEnd.bytes.prefix(Int(min(UInt64(heldEnd.bytes.count), range.upperBound - heldEnd.offset))))
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

    /// The bytes of `range`, reading what is missing; with `allowShort`, fewer at the end of the file; nil if none.
    ///
    /// A read for a missing range asks for at least `readAhead` bytes, so that the next headers come with it.
    mutating func bytes(_ range: Range<UInt64>, allowShort: Bool, readAhead: UInt64) throws -> [UInt8]? {
        if let held = ends.bytes(range) { return held }
        if !contains(range) {
            let end = max(range.upperBound, range.lowerBound + readAhead)
            try load(range.lowerBound..<end)
        }
        let start = range.lowerBound
        guard start >= offset else { return nil }
        let available = offset + UInt64(bytes.count)
        guard start < available || range.isEmpty else { return nil }
        let end = min(range.upperBound, available)
        if end < range.upperBound && !allowShort { return nil }
        return Array(bytes[Int(start - offset)..<Int(end - offset)])
    }
}
