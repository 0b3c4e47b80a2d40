import ByteSources

/// A stream's segment as the fragmented movie it is: its init segment (held in memory) followed by the segment's
/// bytes, read from the segment's source as they are asked for. The locator and the sample fetches read it as
/// one file; a read past the init segment becomes a read of the segment's resource at the same distance past the
/// segment's first byte.
struct SegmentByteSource: ByteSource {
    /// The init segment's bytes (empty for a self-initialising segment).
    let initialization: [UInt8]
    /// The segment's resource.
    let segment: any ByteSource
    /// The segment's bytes in its resource; nil for all of them.
    let byteRange: Range<UInt64>?
    /// The segment's URL, for messages.
    let name: String

    private var initializationCount: UInt64 { UInt64(initialization.count) }

    var knownLength: UInt64? {
        get async {
            if let byteRange { return initializationCount + UInt64(byteRange.count) }
            return await segment.knownLength.map { initializationCount + $0 }
        }
    }

    /// Where `range` of this file lies in the segment's resource (nil when it is all in the init segment).
    private func segmentRange(_ range: Range<UInt64>) -> Range<UInt64>? {
        guard range.upperBound > initializationCount else { return nil }
        let base = byteRange?.lowerBound ?? 0
        let lower = max(range.lowerBound, initializationCount) - initializationCount
        let upper = range.upperBound - initializationCount
        let (start, startOverflow) = base.addingReportingOverflow(lower)
        var (end, endOverflow) = base.addingReportingOverflow(upper)
        if endOverflow { end = .max }
        if let byteRange { end = min(end, byteRange.upperBound) }
        guard !startOverflow, start < end else { return nil }
        return start ..< end
    }

    /// The init segment's part of `range`.
    private func initializationPart(_ range: Range<UInt64>) -> ArraySlice<UInt8> {
        let lower = min(range.lowerBound, initializationCount)
        let upper = min(max(range.upperBound, lower), initializationCount)
        return initialization[Int(lower) ..< Int(upper)]
    }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        var bytes = Array(initializationPart(range))
        if let inSegment = segmentRange(range) { bytes += try await segment.read(inSegment) }
        return bytes
    }

    func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        // The segment's parts in one batch (one request where the origin answers several ranges at once).
        let parts = ranges.map(segmentRange)
        let wanted = parts.compactMap { $0 }
        let read = wanted.isEmpty ? [] : try await segment.read(ranges: wanted)
        var next = read.makeIterator()
        return ranges.indices.map { index in
            var bytes = Array(initializationPart(ranges[index]))
            if parts[index] != nil { bytes += next.next() ?? [] }
            return bytes
        }
    }

    var coalescingGap: UInt64 { segment.coalescingGap }

    var version: String? { get async { await segment.version } }

    var inputName: String? { name }

    var statistics: FetchStats? { get async { await segment.statistics } }
}
