import Synchronization

/// Counts what is read through it, for sources that do not count themselves (files, memory, your own), so every
/// source can say what a thumbnail cost; over a source that counts (HTTP, which sees every byte on the wire), reads
/// pass straight through and its `statistics` are that source's. Each read is recorded in the meters measuring the
/// task that reads (`FetchMeter.measure(_:)`) too, once: a counting source that the base reads through (a wrapper of
/// yours around an HTTP source) does not record it again.
public final class CountingByteSource: ByteSource {
    /// The source read through.
    public let base: any ByteSource
    private let meter = FetchMeter()
    /// Whether `base` counts its own reads (its `statistics` are not nil), once known.
    private let baseCounts = Mutex<Bool?>(nil)

    /// Counts the reads of `base`.
    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var knownLength: UInt64? { get async { await base.knownLength } }
    public var coalescingGap: UInt64 { base.coalescingGap }
    public var version: String? { get async { await base.version } }
    public var inputName: String? { base.inputName }

    /// The base's statistics when it keeps them, else the reads counted here: one request per read, a round trip
    /// per read that starts while no other is under way, the bytes returned, the time, and no connections.
    public var statistics: FetchStats? {
        get async {
            if let own = await base.statistics { return own }
            var stats = meter.statistics
            stats.connectionsOpened = 0
            return stats
        }
    }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        guard await !passesThrough() else { return try await base.read(range) }
        let request = FetchMeter.begin(in: meter)
        do {
            let bytes = try await FetchMeter.unmeasured { try await base.read(range) }
            end(request, start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: bytes.count)
            return bytes
        } catch {
            end(request, start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: 0)
            throw error
        }
    }

    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        guard await !passesThrough() else { return try await base.readSuffix(count) }
        let request = FetchMeter.begin(in: meter)
        do {
            let result = try await FetchMeter.unmeasured { try await base.readSuffix(count) }
            end(request, start: result.offset, end: nil, suffix: count, bytes: result.bytes.count)
            return result
        } catch {
            end(request, start: 0, end: nil, suffix: count, bytes: 0)
            throw error
        }
    }

    /// The base's own reading of the ends (one request where it can ask for both), counted as one request.
    public func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        guard await !passesThrough() else { return try await base.readEnds(head: head, tail: tail) }
        let request = FetchMeter.begin(in: meter)
        do {
            let ends = try await FetchMeter.unmeasured { try await base.readEnds(head: head, tail: tail) }
            end(request, start: 0, end: head, suffix: tail, bytes: ends.head.count + ends.tail.count)
            return ends
        } catch {
            end(request, start: 0, end: head, suffix: tail, bytes: 0)
            throw error
        }
    }

    /// The base's own reading of several ranges (one request where it can ask for all), counted as one request per
    /// range, all under way together.
    public func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        guard await !passesThrough() else { return try await base.read(ranges: ranges) }
        let requests = ranges.map { _ in FetchMeter.begin(in: meter) }
        do {
            let results = try await FetchMeter.unmeasured { try await base.read(ranges: ranges) }
            for (index, range) in ranges.enumerated() {
                end(requests[index], start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: results[index].count)
            }
            return results
        } catch {
            for (index, range) in ranges.enumerated() {
                end(requests[index], start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: 0)
            }
            throw error
        }
    }

    /// The base's own streaming read (one request where it is remote), counted as one request of the bytes handed
    /// over.
    public func read(_ range: Range<UInt64>, until consume: @Sendable (ArraySlice<UInt8>) throws -> Bool) async throws -> UInt64 {
        guard await !passesThrough() else { return try await base.read(range, until: consume) }
        let request = FetchMeter.begin(in: meter)
        do {
            let count = try await FetchMeter.unmeasured { try await base.read(range, until: consume) }
            end(request, start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: Int(clamping: count))
            return count
        } catch {
            end(request, start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: 0)
            throw error
        }
    }

    /// Whether reads go straight to `base` because it counts them itself (asked once).
    private func passesThrough() async -> Bool {
        if let known = baseCounts.withLock({ $0 }) { return known }
        let counts = await base.statistics != nil
        baseCounts.withLock { $0 = counts }
        return counts
    }

    private func end(_ request: FetchMeter.Request, start: UInt64, end: UInt64?, suffix: UInt64?, bytes: Int) {
        request.end(FetchStats.Request(start: start, end: end, suffixLength: suffix, status: 0, bytes: UInt64(bytes), attempt: 1),
                    firstByte: nil)
    }
}
