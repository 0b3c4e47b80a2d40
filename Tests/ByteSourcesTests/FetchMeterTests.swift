import ByteSources
import Testing

/// A meter counts the reads of the work it measures, its child tasks' too, and not those of other work reading the
/// same source at the same time.
@Suite struct FetchMeterTests {
    /// A source of 1000 bytes, counted.
    static func source() -> CountingByteSource {
        CountingByteSource(MemoryByteSource([UInt8](repeating: 7, count: 1000)))
    }

    @Test func aMeterCountsItsOwnWorkWhileOtherWorkReadsTheSameSource() async throws {
        let source = Self.source()
        let (first, second) = (FetchMeter(), FetchMeter())
        let barrier = Barrier(parties: 2)
        // Each piece of work reads, waits until the other has read too, then reads again: the reads interleave.
        async let one: Void = first.measure {
            _ = try await source.read(0..<100)
            await barrier.arrive()
            _ = try await source.read(100..<130)
        }
        async let two: Void = second.measure {
            _ = try await source.read(500..<700)
            await barrier.arrive()
            _ = try await source.read(ranges: [700..<710, 900..<1000])
        }
        _ = try await (one, two)
        #expect(first.statistics.requests == 2)
        #expect(first.statistics.bytes == 130)
        #expect(second.statistics.requests == 3)
        #expect(second.statistics.bytes == 310)
        // The source's own statistics are everyone's.
        let all = try #require(await source.statistics)
        #expect(all.requests == 5)
        #expect(all.bytes == 440)
        #expect(all.connectionsOpened == 0)
        #expect(first.statistics.connectionsOpened == nil)
    }

    @Test func childTasksCountForTheMeterOfTheirParentAndNestedMetersBothCount() async throws {
        let source = Self.source()
        let (outer, inner) = (FetchMeter(), FetchMeter())
        try await outer.measure {
            _ = try await source.read(0..<10)
            try await inner.measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for start in stride(from: 100, to: 400, by: 100) {
                        group.addTask { _ = try await source.read(UInt64(start)..<UInt64(start + 50)) }
                    }
                    try await group.waitForAll()
                }
                try await inner.measure { _ = try await source.read(990..<1000) }  // measured once, not twice
            }
        }
        _ = try await source.read(0..<1)  // measured by neither
        #expect(inner.statistics.requests == 4)
        #expect(inner.statistics.bytes == 160)
        #expect(outer.statistics.requests == 5)
        #expect(outer.statistics.bytes == 170)
        #expect(inner.statistics.log.count == 4)
    }

    @Test func readsThatFailAreCountedAndTheWorkThatThrowsKeepsItsCount() async throws {
        struct Refused: Error {}
        let source = Self.source()
        let meter = FetchMeter()
        await #expect(throws: Refused.self) {
            try await meter.measure {
                _ = try await source.read(0..<20)
                throw Refused()
            }
        }
        #expect(meter.statistics.requests == 1)
        #expect(meter.statistics.bytes == 20)
    }

    @Test func aCountingSourceBehindAWrapperThatDoesNotCountIsNotCountedTwice() async throws {
        let inner = Self.source()  // counts, as an HTTP source does
        let outer = CountingByteSource(Forwarding(base: inner))
        let meter = FetchMeter()
        try await meter.measure {
            _ = try await outer.read(0..<40)
            _ = try await outer.read(ranges: [0..<10, 20..<30])
        }
        #expect(meter.statistics.requests == 3)
        #expect(meter.statistics.bytes == 60)
    }

    @Test func overASourceThatCountsReadsPassStraightThrough() async throws {
        let inner = Self.source()
        let outer = CountingByteSource(inner)
        let meter = FetchMeter()
        try await meter.measure { _ = try await outer.read(0..<40) }
        #expect(meter.statistics.requests == 1)  // recorded by the inner source alone
        #expect(await outer.statistics?.requests == 1)
        #expect(await inner.statistics?.requests == 1)
    }
}

/// A source of yours that reads through another and keeps no statistics.
private struct Forwarding: ByteSource {
    let base: any ByteSource
    var knownLength: UInt64? { get async { await base.knownLength } }
    func read(_ range: Range<UInt64>) async throws -> [UInt8] { try await base.read(range) }
    func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds { try await base.readEnds(head: head, tail: tail) }
    func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] { try await base.read(ranges: ranges) }
}

/// Lets its parties go on once all of them have arrived.
private actor Barrier {
    private let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() async {
        if waiting.count + 1 == parties {
            for party in waiting { party.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
