import ByteSources
import Synchronization
import Testing
@testable import Thumbs

/// A resource some of whose ranges were read before (a search's probes): a read across them takes each from memory
/// and reads only the gaps between them, and stops when the reader has enough.
@Suite struct PrefetchedByteSourceTests {
    static let bytes = (0 ..< 1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// The source over the bytes, counted, with 100..<200 and 300..<400 held.
    static func source() -> (prefetched: PrefetchedByteSource, base: CountingByteSource) {
        let base = CountingByteSource(MemoryByteSource(bytes))
        let held = [(range: UInt64(100) ..< 200, bytes: Array(bytes[100 ..< 200])), (range: UInt64(300) ..< 400, bytes: Array(bytes[300 ..< 400]))]
        return (PrefetchedByteSource(base: base, held: held), base)
    }

    @Test func aReadAcrossHeldRangesReadsOnlyTheGaps() async throws {
        let (prefetched, base) = Self.source()
        let handed = Mutex<[UInt8]>([])
        let count = try await prefetched.read(50 ..< 500) { piece in
            handed.withLock { $0 += piece }
            return false
        }
        #expect(count == 450)
        #expect(handed.withLock { $0 } == Array(Self.bytes[50 ..< 500]))
        let reads = await base.statistics?.log.map { ($0.start, $0.end ?? 0) } ?? []
        #expect(reads.map(\.0) == [50, 200, 400] && reads.map(\.1) == [100, 300, 500], "\(reads)")
    }

    @Test func aReaderWithEnoughStopsTheReads() async throws {
        let (prefetched, base) = Self.source()
        // Enough once the second held range is handed over: nothing after it is read.
        let total = Atomic(0)
        let count = try await prefetched.read(50 ..< 500) { piece in
            total.add(piece.count, ordering: .relaxed).newValue >= 350
        }
        #expect(count == 350)
        let reads = await base.statistics?.log.map { ($0.start, $0.end ?? 0) } ?? []
        #expect(reads.map(\.0) == [50, 200], "\(reads)")
    }
}
