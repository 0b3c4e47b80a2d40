import ByteSources
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// Thumbnails of a fragmented movie whose moofs are read on demand are those of the movie read whole, at every
/// kind of time, and read only the moofs they need.
@Suite struct FragmentsOnDemandThumbnailTests {
    /// By default a head with ftyp, moov and sidx but no moof, a tail with the mfra after the last fragment but no
    /// moof, small moof probes: each moof costs a read of its own.
    static func locator(_ reading: MovieLocator.FragmentReading, headSize: Int = 1024) -> MovieLocator {
        var options = MovieLocator.Options(fragmentReading: reading)
        options.headSize = headSize
        options.tailSize = 512
        options.fragmentProbeSize = 512
        return MovieLocator(options: options)
    }

    static func generator(_ reading: MovieLocator.FragmentReading, source: any ByteSource, headSize: Int = 1024,
                          _ change: (inout ThumbnailOptions) -> Void = { _ in }) -> ThumbnailGenerator {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        options.allowsCoverArt = false
        change(&options)
        return ThumbnailGenerator(source: source, options: options, locator: locator(reading, headSize: headSize))
    }

    /// The keyframes' presentation times from ffprobe, in seconds: one starts each subsegment.
    static func keyframeTimes() throws -> [Double] {
        let expected = try Fixtures.expectation("fragmented")
        let scale = Double(try #require(expected.timescale))
        return expected.packets.filter(\.key).map { Double($0.pts) / scale }.sorted()
    }

    static let times: [ThumbnailTime?] = [nil, .seconds(0), .seconds(0.9), .seconds(1.45), .seconds(2.2), .seconds(99),
                                          .fraction(0.5), .frame(40)]

    /// Heads of 1 KiB (no moof) and 16 KiB (the first subsegment whole).
    @Test(arguments: [false, true], [1024, 16 * 1024])
    func picturesAndTimesAreThoseOfTheMovieReadWhole(_ exact: Bool, headSize: Int) async throws {
        let path = Fixtures.path("fragmented")
        for time in Self.times {
            let change: (inout ThumbnailOptions) -> Void = {
                if exact { $0.requestedTimeToleranceBefore = .zero; $0.requestedTimeToleranceAfter = .zero }
            }
            let whole = try await Self.generator(.all, source: try FileByteSource(path: path), change).image(at: time)
            let onDemand = try await Self.generator(.onDemand, source: try FileByteSource(path: path), headSize: headSize, change)
                .image(at: time)
            let samePicture = onDemand.image == whole.image
            #expect(samePicture, "\(String(describing: time)) exact \(exact)")
            #expect(onDemand.actualTime == whole.actualTime && onDemand.requestedTime == whole.requestedTime,
                    "\(String(describing: time)) exact \(exact)")
            #expect(onDemand.decodedSamples == whole.decodedSamples, "\(String(describing: time)) exact \(exact)")
        }
    }

    @Test func aThumbnailReadsTheIndexItsMoofAndItsKeyframe() async throws {
        let source = RecordingByteSource(MemoryByteSource(try Fixtures.bytes("fragmented")))
        let generator = Self.generator(.onDemand, source: source)
        let movie = try await generator.loadMovie()
        let index = try #require(movie.fragmentIndex)
        // Just after the fourth keyframe (ffprobe's), which starts the fourth subsegment: its moof alone, then the
        // rest of the keyframe past the moof's probe.
        let thumbnail = try await generator.image(at: .seconds(try Self.keyframeTimes()[3] + 0.05))
        let ranges = await source.ranges
        #expect(ranges.count == 4)  // the head and the tail (a file reads them side by side), the moof, the keyframe
        #expect(ranges[2].lowerBound == index.subsegments[3].byteRange.lowerBound)
        #expect(thumbnail.requests == 2)
        #expect(try await generator.loadMovie().readSubsegments == [3])
    }

    @Test func aTimeInTheFirstSubsegmentHeldInTheHeadCostsNoFurtherRead() async throws {
        let source = RecordingByteSource(MemoryByteSource(try Fixtures.bytes("fragmented")))
        let generator = Self.generator(.onDemand, source: source, headSize: 16 * 1024)
        let thumbnail = try await generator.image(at: .seconds(try Self.keyframeTimes()[0]))
        #expect(await source.ranges.count == 2)  // the head and the tail
        #expect(thumbnail.isSyncSample)
        #expect(try await generator.loadMovie().readSubsegments == [0])
    }

    @Test func laterTimesReadOnlyTheMoofsTheyLack() async throws {
        let source = RecordingByteSource(MemoryByteSource(try Fixtures.bytes("fragmented")))
        let generator = Self.generator(.onDemand, source: source)
        let keyframes = try Self.keyframeTimes()
        let early = { (position: Int) in ThumbnailTime.seconds(keyframes[position] + 0.05) }
        _ = try await generator.image(at: early(1))
        _ = try await generator.image(at: early(5))
        let again = try await generator.image(at: early(1))
        #expect(again.requests == 0)  // its moof and keyframe are kept
        #expect(try await generator.loadMovie().readSubsegments == [1, 5])
    }

    @Test func theSubsegmentAfterASampleIsReadForTheKeyframesAfterIt() async throws {
        // What skipping dark frames asks for when it runs out of keyframes read.
        let source = MemoryByteSource(try Fixtures.bytes("fragmented"))
        let movie = try await Self.locator(.onDemand).locate(in: source).movie
        let index = try #require(movie.fragmentIndex)
        let read = try await Self.locator(.onDemand).readingFragments([2], of: movie, in: source).movie
        let track = try #require(read.primaryVideoTrack)
        let last = try track.samples.sample(at: track.samples.count - 1)
        #expect(read.subsegment(after: last) == 3)
        #expect(index.subsegment(holding: last.offset) == 2)
        let all = try await Self.locator(.onDemand).readingFragments(Array(0..<7), of: movie, in: source).movie
        let lastOfAll = try #require(all.primaryVideoTrack).samples
        #expect(all.subsegment(after: try lastOfAll.sample(at: lastOfAll.count - 1)) == nil)
    }
}
