/// The bytes the locator has read so far, as one contiguous window, and the log of reads.
struct ReadWindow {
    let source: any ByteSource
    let limits: ParseLimits
    /// The file offset of `bytes[0]`.
    private(set) var offset: UInt64 = 0
    private(set) var bytes: [UInt8] = []
    /// The file length, once known.
    var length: UInt64?
    private(set) var reads: [MovieLocator.Read] = []

    init(source: any ByteSource, limits: ParseLimits) {
        self.source = source
        self.limits = limits
    }

    /// Logs a read made outside the window (concurrent fragment probes).
    mutating func record(range: Range<UInt64>, byteCount: Int) {
        reads.append(MovieLocator.Read(range: range, byteCount: byteCount))
    }

    /// Whether `range` is inside the window.
    func contains(_ range: Range<UInt64>) -> Bool {
        range.lowerBound >= offset && range.upperBound <= offset + UInt64(bytes.count)
    }

    /// Reads `range` (clamped to the known length) and makes it the window, or extends the window when it starts inside it.
    mutating func load(_ range: Range<UInt64>) async throws {
        var range = range
        if let length { range = min(range.lowerBound, length)..<min(range.upperBound, length) }
        guard !range.isEmpty else { return }
        let windowEnd = offset + UInt64(bytes.count)
        let extending = range.lowerBound >= offset && range.lowerBound <= windowEnd && range.upperBound > windowEnd
        let readRange = extending ? windowEnd..<range.upperBound : range
        let data = try await source.read(readRange)
        reads.append(MovieLocator.Read(range: readRange, byteCount: data.count))
        if data.count < readRange.count {
            // A short read means the file ends there.
            length = readRange.lowerBound + UInt64(data.count)
        } else if length == nil, let known = await source.knownLength {
            length = known
        }
        if extending {
            bytes.append(contentsOf: data)
        } else {
            offset = readRange.lowerBound
            bytes = data
        }
    }

    /// Up to `maximum` bytes from `start` that are already in the window, without reading; nil if `start` is outside it.
    func cachedBytes(from start: UInt64, maximum: Int) -> [UInt8]? {
        let end = offset + UInt64(bytes.count)
        guard start >= offset, start < end else { return nil }
        let upper = min(end, start + UInt64(maximum))
        return Array(bytes[Int(start - offset)..<Int(upper - offset)])
    }

    /// The bytes of `range`, reading what is missing; with `allowShort`, fewer at the end of the file; nil if none.
    ///
    /// A read for a missing range asks for at least `readAhead` bytes, so that the next headers come with it.
    mutating func bytes(_ range: Range<UInt64>, allowShort: Bool, readAhead: UInt64) async throws -> [UInt8]? {
        if !contains(range) {
            let end = max(range.upperBound, range.lowerBound + readAhead)
            try await load(range.lowerBound..<end)
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
