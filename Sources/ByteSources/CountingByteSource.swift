import Synchronization

/// Counts what is read through it, for sources that do not count themselves (files, memory, your own), so every
/// source can say what a thumbnail cost; over a source that counts (HTTP, which sees every byte on the wire), its
/// `statistics` are that source's.
public final class CountingByteSource: ByteSource {
    /// The source read through.
    public let base: any ByteSource
    private let state = Mutex(State())

    private struct State {
        var stats = FetchStats()
        var firstStart: ContinuousClock.Instant?
        var inFlight = 0
    }

    /// Counts the reads of `base`.
    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var knownLength: UInt64? { get async { await base.knownLength } }
    public var coalescingGap: UInt64 { base.coalescingGap }
    public var version: String? { get async { await base.version } }
    public var inputName: String? { base.inputName }

    /// The base's statistics when it keeps them, else the reads counted here: one request per read, a round trip
    /// per read that starts while no other is under way, the bytes returned, and the time.
    public var statistics: FetchStats? {
        get async {
            if let own = await base.statistics { return own }
            return state.withLock { $0.stats }
        }
    }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let watch = begin()
        do {
            let bytes = try await base.read(range)
            end(start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: bytes.count, watch: watch)
            return bytes
        } catch {
            end(start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: 0, watch: watch)
            throw error
        }
    }

    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        let watch = begin()
        do {
            let result = try await base.readSuffix(count)
            end(start: result.offset, end: nil, suffix: count, bytes: result.bytes.count, watch: watch)
            return result
        } catch {
            end(start: 0, end: nil, suffix: count, bytes: 0, watch: watch)
            throw error
        }
    }

    /// The base's own reading of the ends (one request where it can ask for both), counted as one request.
    public func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        let watch = begin()
        do {
            let ends = try await base.readEnds(head: head, tail: tail)
            end(start: 0, end: head, suffix: tail, bytes: ends.head.count + ends.tail.count, watch: watch)
            return ends
        } catch {
            end(start: 0, end: head, suffix: tail, bytes: 0, watch: watch)
            throw error
        }
    }

    /// The base's own reading of several ranges (one request where it can ask for all), counted as one request per
    /// range, all under way together.
    public func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        let watches = ranges.map { _ in begin() }
        do {
            let results = try await base.read(ranges: ranges)
            for (index, range) in ranges.enumerated() {
                end(start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: results[index].count, watch: watches[index])
            }
            return results
        } catch {
            for (index, range) in ranges.enumerated() {
                end(start: range.lowerBound, end: range.upperBound, suffix: nil, bytes: 0, watch: watches[index])
            }
            throw error
        }
    }

    private func begin() -> Stopwatch {
        let watch = Stopwatch()
        state.withLock { state in
            if state.firstStart == nil { state.firstStart = watch.start }
            if state.inFlight == 0 { state.stats.roundTrips += 1 }
            state.inFlight += 1
            state.stats.requests += 1
        }
        return watch
    }

    private func end(start: UInt64, end: UInt64?, suffix: UInt64?, bytes: Int, watch: Stopwatch) {
        let milliseconds = watch.milliseconds
        state.withLock { state in
            state.inFlight -= 1
            state.stats.bytes += UInt64(bytes)
            state.stats.log.append(FetchStats.Request(start: start, end: end, suffixLength: suffix, status: 0, bytes: UInt64(bytes),
                                                      milliseconds: milliseconds, firstByteMilliseconds: 0, attempt: 1))
            if let first = state.firstStart { state.stats.wallMilliseconds = (ContinuousClock.now - first).milliseconds }
        }
    }
}
