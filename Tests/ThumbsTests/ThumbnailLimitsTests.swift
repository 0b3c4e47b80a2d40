import ByteSources
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// `ThumbnailLimits`: what one thumbnail may decode and hold, with typed errors past it, and decodes longer than
/// the sample cache or one batch that still give the right picture.
@Suite(.timeLimit(.minutes(1))) struct ThumbnailLimitsTests {
    static func exact(_ change: (inout ThumbnailOptions) -> Void = { _ in }) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        options.format = .none
        change(&options)
        return options
    }

    /// The times (seconds) of the last frames before the second and third keyframes of `name`: decodes of a whole GOP.
    static func endsOfGOPs(_ name: String) throws -> [Double] {
        let expected = try Fixtures.expectation(name)
        let scale = Double(try #require(expected.timescale))
        let packets = expected.packets.sorted { $0.pts < $1.pts }
        let keys = packets.indices.filter { packets[$0].key && $0 > 0 }
        try #require(keys.count >= 2)
        return keys.prefix(2).map { Double(packets[$0 - 1].pts) / scale }
    }

    @Test func exactFrameFiftyMillionSamplesAfterItsKeyframeIsRefusedWithoutPlanningThem() async throws {
        // One stss entry and 50 million constant-size samples: the plan must not hold 50 million samples.
        let source = LongTrackMovie.standard(sampleCount: 50_000_000, constantSize: 10, syncSamples: [1])
        let track = try #require(try await MovieLocator().locate(in: source).movie.primaryVideoTrack)
        #expect(try #require(throws: ThumbnailError.self) {
            _ = try FramePlanner.plan(track: track, time: 49_999_000, selection: .exact)
        }.code == .limitExceeded)
    }

    @Test func pictureLargerThanTheLimitIsRefusedBeforeDecoding() async throws {
        // h264-1080p-crop codes 1920x1088: one luma sample under that refuses it, at exactly that it decodes.
        let exactly = try ThumbnailGenerator(path: Fixtures.path("h264-1080p-crop"), options: Self.exact {
            $0.limits.maximumPictureLumaSamples = 1920 * 1088
        })
        #expect(try await exactly.image(at: .seconds(0)).decodedSamples == 1)
        let under = try ThumbnailGenerator(path: Fixtures.path("h264-1080p-crop"), options: Self.exact {
            $0.limits.maximumPictureLumaSamples = 1920 * 1088 - 1
        })
        let error = try await #require(throws: DecodeError.self) { _ = try await under.image(at: .seconds(0)) }
        #expect(error.code == .limitExceeded)
    }

    @Test func decodedSampleLimitIsInclusive() async throws {
        let source = LongTrackMovie.standard(sampleCount: 2000, constantSize: 10, syncSamples: [1, 1001])
        let track = try #require(try await MovieLocator().locate(in: source).movie.primaryVideoTrack)
        var limits = ThumbnailLimits()
        limits.maximumDecodedSamples = 100
        #expect(try FramePlanner.plan(track: track, time: 1099, selection: .exact, limits: limits).samples.count == 100)
        #expect(try #require(throws: ThumbnailError.self) {
            _ = try FramePlanner.plan(track: track, time: 1100, selection: .exact, limits: limits)
        }.code == .limitExceeded)
        #expect(try FramePlanner.plan(track: track, time: 1100, selection: .nearestKeyframe, limits: limits).samples.count == 1)
    }

    @Test func sampleLargerThanTheLimitIsRefusedBeforeItIsFetched() async throws {
        // Ten samples of 100 MB each in a sparse 1 GB file.
        let source = RecordingByteSource(LongTrackMovie.standard(sampleCount: 10, constantSize: 100 << 20, syncSamples: [1]))
        let generator = ThumbnailGenerator(source: source, options: Self.exact())
        #expect(try await #require(throws: ThumbnailError.self) { _ = try await generator.image(at: .seconds(0)) }.code == .limitExceeded)
        let asked = await source.ranges.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        #expect(asked < 1 << 20)
    }

    @Test func exactFrameWhoseRunIsLargerThanTheSampleCacheAndABatchIsDecoded() async throws {
        // Before, a plan larger than the generator's sample cache dropped its own samples and failed.
        let last = try Self.endsOfGOPs("h264-p-only")[0]
        let tight = try ThumbnailGenerator(path: Fixtures.path("h264-p-only"), options: Self.exact {
            $0.limits.sampleCacheBytes = 2000
            $0.limits.batchBytes = 1
        })
        let roomy = try ThumbnailGenerator(path: Fixtures.path("h264-p-only"), options: Self.exact())
        let small = try await tight.image(at: .seconds(last))
        let reference = try await roomy.image(at: .seconds(last))
        #expect(small.decodedSamples > 10)
        #expect(small.decodedSamples == reference.decodedSamples)
        #expect(small.actualTime == reference.actualTime)
        #expect(MD5.hex(small.image.pixels) == MD5.hex(reference.image.pixels))
    }

    @Test func timesThatInterleaveOnOneGeneratorKeepTheirOwnSamplesAndDecoders() async throws {
        // The first time waits for a decode permit while the second fetches (and, before, evicted the first's samples).
        let times = try Self.endsOfGOPs("h264-p-only")
        let work = ThumbnailWorkLimits(fetches: 4, decodes: 1)
        let options = Self.exact { $0.limits.sampleCacheBytes = 2000 }
        let shared = ThumbnailGenerator(source: try FileByteSource(path: Fixtures.path("h264-p-only")), options: options, limits: work)
        try await work.decodes.acquire()
        let first = Task { try await shared.image(at: .seconds(times[0])) }
        let second = Task { try await shared.image(at: .seconds(times[1])) }
        try await Task.sleep(for: .milliseconds(300))
        await work.decodes.release()
        let pictures = try await [first.value, second.value]
        for (picture, time) in zip(pictures, times) {
            let alone = try await ThumbnailGenerator(path: Fixtures.path("h264-p-only"), options: Self.exact()).image(at: .seconds(time))
            #expect(picture.actualTime == alone.actualTime)
            #expect(MD5.hex(picture.image.pixels) == MD5.hex(alone.image.pixels))
        }
    }
}
