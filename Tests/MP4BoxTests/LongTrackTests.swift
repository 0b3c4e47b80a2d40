@testable import MP4Box
import MP4BoxTestSupport
import Testing

/// Tracks that claim millions of samples with a few bytes of tables: lookups stay O(log n) or bounded walks, and
/// nothing is allocated per sample the bytes do not back.
@Suite(.timeLimit(.minutes(1))) struct LongTrackTests {
    static func track(_ source: SparseByteSource) throws -> MovieTrack {
        try #require(try MovieLocator().locate(in: source.file).movie.primaryVideoTrack)
    }

    @Test func constantSizeSamplesDeepInOneChunkArePlacedWithoutWalking() async throws {
        // 50 million samples of 10 bytes in one chunk: placing any one is arithmetic, not a walk of the chunk.
        let track = try Self.track(LongTrackMovie.standard(sampleCount: 50_000_000, constantSize: 10, syncSamples: [1]))
        #expect(track.samples.count == 50_000_000)
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let index = Int(random.next() % 50_000_000)
            let sample = try track.samples.sample(at: index)
            #expect(sample.offset == 4096 + UInt64(index) * 10)
            #expect(sample.decodeTime == Int64(index))
        }
    }

    @Test func sizeTableChunkOfAMillionSamplesIsPlacedFromCheckpoints() async throws {
        let count = 1_000_000
        let track = try Self.track(LongTrackMovie.standard(sampleCount: UInt32(count), constantSize: nil, syncSamples: [1]))
        var offsets = [UInt64](repeating: 0, count: count)  // the oracle: a running sum of the sizes written
        var position = LongTrackMovie.chunkOffset(sampleCount: UInt32(count), constantSize: nil, syncSamples: [1])
        for index in 0..<count {
            offsets[index] = position
            position += UInt64(LongTrackMovie.tableSize(of: index))
        }
        var random = SplitMix64(seed: 11)
        let spacing = StandardSampleTable.checkpointSpacing
        let edges = [0, 1, spacing - 1, spacing, spacing + 1, 2 * spacing, 4095, 4096, 4097, count - 1]
        for index in edges + (0..<2000).map({ _ in Int(random.next() % UInt64(count)) }) {
            let sample = try track.samples.sample(at: index)
            #expect(sample.offset == offsets[index], "sample \(index)")
            #expect(sample.size == LongTrackMovie.tableSize(of: index))
        }
    }

    @Test func fragmentRunOfFiftyMillionDefaultSamplesListsNoSyncSample() async throws {
        // A 20-byte trun claiming 50 million samples, every one sync by tfhd's default flags.
        let (source, dataOffset) = try LongTrackMovie.fragmented(sampleCount: 50_000_000, sampleSize: 3, defaultFlags: 0)
        let track = try Self.track(source)
        let fragments = try #require(track.samples.fragments)
        #expect(fragments.listedSyncSampleCount == 0)
        #expect(track.samples.count == 50_000_000)
        #expect(track.samples.syncSampleCount == 50_000_000)
        #expect(track.samples.sampleIndex(ofSyncSample: 49_999_999) == 49_999_999)
        #expect(track.samples.syncIndex(atOrBefore: 123_456) == 123_456)
        let last = try track.samples.sample(at: 49_999_999)
        #expect(last.offset == dataOffset + 49_999_999 * 3)
        #expect(last.decodeTime == 49_999_999)
        #expect(track.samples.lastSample(decodedAtOrBefore: 1_000_000) == 1_000_000)
        #expect(try track.syncSample(nearest: 25_000_000)?.index == 25_000_000)
    }

    @Test func fragmentRunWhoseFirstSampleAloneIsSyncHasOneSyncSample() async throws {
        let (source, _) = try LongTrackMovie.fragmented(sampleCount: 10_000_000, sampleSize: 3, defaultFlags: 0x1_0000,
                                                        firstSampleFlags: 0)
        let track = try Self.track(source)
        #expect(track.samples.syncSampleCount == 1)
        #expect(track.samples.sampleIndex(ofSyncSample: 0) == 0)
        #expect(track.samples.syncIndex(atOrBefore: 9_999_999) == 0)
        #expect(try track.syncSample(atOrBefore: 5_000_000)?.index == 0)
        #expect(try track.samples.sample(at: 5).isSync == false)
    }

    @Test func fragmentRunWhoseFirstSampleAloneIsNotSyncStartsAtTheSecond() async throws {
        let (source, _) = try LongTrackMovie.fragmented(sampleCount: 1000, sampleSize: 3, defaultFlags: 0, firstSampleFlags: 0x1_0000)
        let track = try Self.track(source)
        #expect(track.samples.syncSampleCount == 999)
        #expect(track.samples.sampleIndex(ofSyncSample: 0) == 1)
        #expect(track.samples.syncIndex(atOrBefore: 0) == nil)
        #expect(track.samples.syncIndex(atOrBefore: 10) == 9)
    }
}
