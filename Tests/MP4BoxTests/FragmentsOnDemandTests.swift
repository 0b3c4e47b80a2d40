import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// A fragmented movie located without its moofs, then read one subsegment at a time, against ffprobe's packets and
/// the movie read whole.
@Suite struct FragmentsOnDemandTests {
    /// Reads fragments on demand, with a head that holds ftyp, moov and sidx (866 bytes) but no moof, and a tail
    /// that holds the mfra after the last fragment (181 bytes) but no moof.
    static let locator: MovieLocator = {
        var options = MovieLocator.Options(fragmentReading: .onDemand)
        options.headSize = 1024
        options.tailSize = 512
        options.fragmentProbeSize = 512
        return MovieLocator(options: options)
    }()

    static func located(_ bytes: [UInt8]? = nil) throws -> (MovieLocator.Result, MemoryFile) {
        let source = MemoryFile(try bytes ?? Fixtures.bytes("fragmented"))
        return (try locator.locate(in: source), source)
    }

    /// The offsets where the file's top-level moof boxes start, by walking its box headers.
    static func moofOffsets(in bytes: [UInt8]) -> [UInt64] {
        var offsets: [UInt64] = []
        var position = 0
        while position + 8 <= bytes.count {
            let size = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[position + 4..<position + 8], as: UTF8.self) == "moof" { offsets.append(UInt64(position)) }
            guard size >= 8 else { break }
            position += size
        }
        return offsets
    }

    @Test func locatingReadsNoMoofYetKnowsEverySubsegmentAndTheDuration() async throws {
        let bytes = try Fixtures.bytes("fragmented")
        let (located, _) = try Self.located()
        let movie = located.movie
        let index = try #require(movie.fragmentIndex)
        #expect(located.reads.count == 2)  // the head and the tail
        #expect(movie.fragmentCount == 0)
        #expect(movie.readSubsegments.isEmpty)
        #expect(movie.hasUnreadFragments)
        // One subsegment per moof, each starting at one.
        #expect(index.subsegments.map(\.byteRange.lowerBound) == Self.moofOffsets(in: bytes))
        let withoutSAP = index.subsegments.filter { !$0.startsWithSAP }
        #expect(withoutSAP.isEmpty)
        let track = try #require(movie.primaryVideoTrack)
        #expect(track.id == index.trackID)
        #expect(track.samples.count == 0)
        let expected = try Fixtures.expectation("fragmented")
        #expect(abs(track.durationSeconds - (expected.duration ?? 0)) < 0.001)
    }

    @Test(arguments: 0..<7)
    func oneSubsegmentGivesTheSamplesFFprobeListsInIt(_ position: Int) async throws {
        let (located, source) = try Self.located()
        let index = try #require(located.movie.fragmentIndex)
        let read = try Self.locator.readingFragments([position], of: located.movie, in: source, held: located.heldBytes)
        #expect(read.movie.readSubsegments == [position])
        #expect(read.reads.count == 1)  // the moof's probe
        #expect(read.topLevelBoxes.map(\.offset) == [index.subsegments[position].byteRange.lowerBound])
        let track = try #require(read.movie.primaryVideoTrack)
        let range = index.subsegments[position].byteRange
        let packets = try Fixtures.expectation("fragmented").packets.filter { range.contains($0.pos) }
        #expect(track.samples.count == packets.count)
        let whole = try #require(try MovieParser.parse(fileBytes: Fixtures.bytes("fragmented")).primaryVideoTrack)
        for (number, packet) in packets.enumerated() where number < track.samples.count {
            let sample = try track.samples.sample(at: number)
            #expect(sample.offset == packet.pos && sample.size == packet.size && sample.isSync == packet.key)
            // Placed on the timeline as in the movie read whole (from the moof's tfdt, not from the samples before).
            let same = try #require(try (0..<whole.samples.count).lazy.map { try whole.samples.sample(at: $0) }
                .first { $0.offset == sample.offset })
            #expect(sample.decodeTime == same.decodeTime && sample.compositionTime == same.compositionTime)
        }
        // The probe's bytes past the moof are kept: the subsegment's first sample (its keyframe) starts there.
        let first = try track.samples.sample(at: 0)
        #expect(read.heldBytes.prefix(of: first.byteRange).count > 0)
    }

    @Test func subsegmentsAroundATimeAreThoseItsKeyframesCanBeIn() async throws {
        let (located, _) = try Self.located()
        let index = try #require(located.movie.fragmentIndex)
        let track = try #require(located.movie.primaryVideoTrack)
        let starts = index.subsegments.map(\.earliestTime)
        for position in index.subsegments.indices {
            let end = position + 1 < starts.count ? starts[position + 1] : index.endTime
            let length = end - starts[position]
            // Early in a subsegment: its own first keyframe is the nearest one after the previous subsegment's.
            #expect(index.subsegments(around: starts[position] + length / 10, timeline: track.timeline) == position...position)
            // Late: the next subsegment's first keyframe may be nearer.
            let late = index.subsegments(around: starts[position] + length * 9 / 10, timeline: track.timeline)
            #expect(late == position...min(position + 1, starts.count - 1))
        }
        #expect(index.subsegments(around: -1000, timeline: track.timeline) == 0...0)
        #expect(index.subsegments(around: .max / 4, timeline: track.timeline) == 6...6)
    }

    @Test func everySubsegmentReadGivesTheMovieReadWhole() async throws {
        let (located, source) = try Self.located()
        let index = try #require(located.movie.fragmentIndex)
        var movie = located.movie
        for position in [5, 1, 3, 0, 6, 2, 4] {
            movie = try Self.locator.readingFragments([position], of: movie, in: source).movie
        }
        #expect(!movie.hasUnreadFragments)
        #expect(movie.readSubsegments == Array(index.subsegments.indices))
        let track = try #require(movie.primaryVideoTrack)
        let whole = try #require(try MovieParser.parse(fileBytes: Fixtures.bytes("fragmented")).primaryVideoTrack)
        #expect(track.samples.count == whole.samples.count)
        #expect(track.samples.syncSampleCount == whole.samples.syncSampleCount)
        for number in 0..<whole.samples.count {
            let (ours, theirs) = (try track.samples.sample(at: number), try whole.samples.sample(at: number))
            #expect(ours.offset == theirs.offset && ours.decodeTime == theirs.decodeTime && ours.isSync == theirs.isSync)
        }
    }

    @Test func moofsWithoutDecodeTimesAreAllRead() async throws {
        // Every tfdt renamed to free: a moof alone can no longer be placed on the timeline.
        var bytes = try Fixtures.bytes("fragmented")
        for offset in 0..<bytes.count - 4 where bytes[offset..<offset + 4].elementsEqual("tfdt".utf8) {
            bytes.replaceSubrange(offset..<offset + 4, with: Array("free".utf8))
        }
        let (located, source) = try Self.located(bytes)
        let read = try Self.locator.readingFragments([3], of: located.movie, in: source)
        #expect(read.movie.readSubsegments == Array(0..<7))
        #expect(!read.movie.hasUnreadFragments)
        let expected = try Fixtures.expectation("fragmented")
        #expect(read.movie.primaryVideoTrack?.samples.count == expected.packets.count)
    }

    @Test func aSubsegmentThatDoesNotStartWithAMoofIsAnError() async throws {
        var bytes = try Fixtures.bytes("fragmented")
        let third = Int(Self.moofOffsets(in: bytes)[3])
        bytes.replaceSubrange(third + 4..<third + 8, with: Array("junk".utf8))
        let (located, source) = try Self.located(bytes)
        do {
            _ = try Self.locator.readingFragments([3], of: located.movie, in: source)
            Issue.record("a subsegment without a moof was read as one")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.path == "sidx")
            #expect(error.offset == UInt64(third))
        }
    }

    @Test func anIndexWhoseEndIsNotSeenIsNotTrusted() async throws {
        // Without a tail, what follows the last subsegment is unknown: the sidx may be one segment's of many.
        var options = Self.locator.options
        options.tailSize = 0
        let located = try MovieLocator(options: options).locate(in: MemoryFile(try Fixtures.bytes("fragmented")))
        #expect(located.movie.fragmentIndex == nil)
        #expect(located.movie.fragmentCount == 7)
    }

    @Test func oneSegmentsOwnIndexIsNotTakenForTheFilesIndex() async throws {
        // Shaka Packager's segments each start with a sidx of their own (the real-world corpus: shaka-h264-288p-colr-sidx-5seg).
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: MediaCorpus.realWorld.path("shaka-h264-288p-colr-sidx-5seg.mp4"))))
        let located = try MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand))
            .locate(in: MemoryFile(bytes))
        let whole = try MovieParser.parse(fileBytes: bytes)
        #expect(located.movie.fragmentIndex == nil)
        #expect(located.movie.fragmentCount == whole.fragmentCount)
        #expect(located.movie.primaryVideoTrack?.samples.count == whole.primaryVideoTrack?.samples.count)
    }

    @Test func withoutAnIndexEveryMoofIsRead() async throws {
        // The sidx renamed: nothing says where the fragments are, so the locator walks them all.
        var bytes = try Fixtures.bytes("fragmented")
        bytes.replaceSubrange(746..<750, with: Array("free".utf8))
        let (located, _) = try Self.located(bytes)
        #expect(located.movie.fragmentIndex == nil)
        #expect(located.movie.fragmentCount == 7)
        #expect(!located.movie.hasUnreadFragments)
    }
}
