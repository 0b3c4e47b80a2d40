import ByteSources
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// AVAssetImageGenerator semantics: times, tolerances, sizes, orientation, and what a thumbnail cost.
@Suite struct ThumbnailGeneratorTests {
    static func generator(_ name: String, _ change: (inout ThumbnailOptions) -> Void = { _ in }) throws -> ThumbnailGenerator {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        change(&options)
        return try ThumbnailGenerator(path: Fixtures.path(name), options: options)
    }

    /// Presentation times from ffprobe, in seconds, sorted.
    static func frameTimes(_ name: String) throws -> [Double] {
        let expected = try Fixtures.expectation(name)
        let scale = Double(try #require(expected.timescale))
        return expected.packets.map { Double($0.pts) / scale }.sorted()
    }

    @Test func defaultTimeIsTenPercentAndTheNearestKeyframe() async throws {
        let thumbnail = try await Self.generator("h264-bframes").image()
        let keys = try Fixtures.expectation("h264-bframes").packets.filter(\.key).map { Double($0.pts) / 12800 }
        let nearest = try #require(keys.min { abs($0 - 0.3) < abs($1 - 0.3) })
        #expect(thumbnail.requestedTime == 0.3)
        #expect(thumbnail.actualTime == nearest)
        #expect(thumbnail.isSyncSample)
        #expect(thumbnail.decodedSamples == 1)
        #expect(thumbnail.image.width == 160 && thumbnail.image.height == 120)
        #expect(thumbnail.encoded.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// A thumbnail asked for with its placeholder carries the ThumbHash of its own picture: the same hash
    /// `ThumbHash(image:)` gives, whose shape and average colour are the picture's (a portrait picture, stored sideways,
    /// is a portrait placeholder). Without asking, there is none.
    @Test func thePlaceholderIsTheHashOfThePictureItself() async throws {
        #expect(try await Self.generator("rotate-90").image().placeholder == nil)
        let thumbnail = try await Self.generator("rotate-90") { $0.makesPlaceholder = true }.image()
        let placeholder = try #require(thumbnail.placeholder)
        #expect(placeholder == (try ThumbHash(image: thumbnail.image)))
        #expect(placeholder.approximateAspectRatio < 1)
        #expect(abs(placeholder.approximateAspectRatio - Double(thumbnail.image.width) / Double(thumbnail.image.height)) < 0.15)
        var sums = (0.0, 0.0, 0.0)
        let count = Double(thumbnail.image.width * thumbnail.image.height)
        for index in stride(from: 0, to: thumbnail.image.pixels.count, by: 3) {
            sums.0 += Double(thumbnail.image.pixels[index]) / 255
            sums.1 += Double(thumbnail.image.pixels[index + 1]) / 255
            sums.2 += Double(thumbnail.image.pixels[index + 2]) / 255
        }
        let average = placeholder.averageColour
        #expect(abs(average.red - sums.0 / count) < 0.05 && abs(average.green - sums.1 / count) < 0.05
                && abs(average.blue - sums.2 / count) < 0.05)
    }

    @Test func exactModeReturnsTheFrameOnScreen() async throws {
        let times = try Self.frameTimes("h264-bframes")
        let generator = try Self.generator("h264-bframes") {
            $0.requestedTimeToleranceBefore = .zero
            $0.requestedTimeToleranceAfter = .zero
        }
        for requested in [0.0, 0.5, 1.23, 2.9] {
            let thumbnail = try await generator.image(at: .seconds(requested))
            let onScreen = try #require(times.last { $0 <= requested + 1e-9 })
            #expect(abs(thumbnail.actualTime - onScreen) < 1e-9, "at \(requested)")
        }
    }

    /// h264-p-only (25 fps, keyframes every 0.48 s, frames in decode order) with the NAL length of the frame at 0.4 s
    /// (sample 10, its offset from ffprobe's packet list) pointing past the sample: that frame cannot be decoded.
    static func generatorWithAnUndecodableFrame(before: Duration, after: Duration) throws -> ThumbnailGenerator {
        var bytes = try Fixtures.bytes("h264-p-only")
        let expected = try Fixtures.expectation("h264-p-only")
        let packet = try #require(expected.packets.sorted { $0.dts < $1.dts }.dropFirst(10).first)
        let offset = Int(packet.pos)
        bytes.replaceSubrange(offset..<offset + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        options.requestedTimeToleranceBefore = before
        options.requestedTimeToleranceAfter = after
        return ThumbnailGenerator(source: MemoryByteSource(bytes), options: options)
    }

    @Test func aFrameThatCannotBeDecodedGivesTheNearestOneInsideTheTolerance() async throws {
        // 0.1 s before and none after: no keyframe in the window (0.0 and 0.48 are outside), so frame 10 is decoded
        // from the keyframe at 0; it fails, and the frame at 0.36 (the nearest decoded before it) is shown.
        let tolerant = try Self.generatorWithAnUndecodableFrame(before: .milliseconds(100), after: .zero)
        let thumbnail = try await tolerant.image(at: .seconds(0.4))
        #expect(abs(thumbnail.actualTime - 0.36) < 1e-9)
        #expect(thumbnail.requestedTime == 0.4)
        // Exact: the error names the sample and why.
        let exact = try Self.generatorWithAnUndecodableFrame(before: .zero, after: .zero)
        await #expect { try await exact.image(at: .seconds(0.4)) } throws: { error in
            guard let error = error as? DecodeError else { return false }
            return error.code == .malformedSample && error.sampleIndex == 10
        }
        // A window that holds only frames after the failed one has nothing to give.
        let after = try Self.generatorWithAnUndecodableFrame(before: .zero, after: .milliseconds(50))
        await #expect(throws: DecodeError.self) { try await after.image(at: .seconds(0.4)) }
    }

    @Test func boundedToleranceTakesTheKeyframeOnlyInsideTheWindow() async throws {
        // Keyframes of h264-bframes are every 0.48 s; 1.0 s is 0.04 s after the one at 0.96.
        let near = try await Self.generator("h264-bframes") { $0.requestedTimeToleranceBefore = .milliseconds(100); $0.requestedTimeToleranceAfter = .milliseconds(100) }
            .image(at: .seconds(1.0))
        #expect(near.isSyncSample)
        #expect(abs(near.actualTime - 0.96) < 1e-9)
        let far = try await Self.generator("h264-bframes") { $0.requestedTimeToleranceBefore = .milliseconds(10); $0.requestedTimeToleranceAfter = .milliseconds(10) }
            .image(at: .seconds(1.2))
        #expect(!far.isSyncSample)
        #expect(abs(far.actualTime - 1.2) < 1e-9)
    }

    @Test func timesPastTheEndClampToTheLastFrame() async throws {
        let times = try Self.frameTimes("h264-bframes")
        let thumbnail = try await Self.generator("h264-bframes") { $0.requestedTimeToleranceBefore = .zero; $0.requestedTimeToleranceAfter = .zero }
            .image(at: .seconds(1000))
        #expect(thumbnail.actualTime == times.last)
    }

    @Test func frameNumbersCountInPresentationOrder() async throws {
        let times = try Self.frameTimes("h264-bframes")
        let generator = try Self.generator("h264-bframes")
        for frame in [0, 1, 2, 37, 74, 500] {
            let thumbnail = try await generator.image(at: .frame(frame))
            #expect(thumbnail.actualTime == times[min(frame, times.count - 1)], "frame \(frame)")
        }
    }

    @Test func rationalAndFractionTimes() async throws {
        let generator = try Self.generator("h264-bframes") { $0.requestedTimeToleranceBefore = .zero; $0.requestedTimeToleranceAfter = .zero }
        #expect(try await generator.image(at: .rational(value: 3, timescale: 2)).actualTime == 1.48)
        #expect(try await generator.image(at: .fraction(0.5)).actualTime == 1.48)
    }

    @Test func orientationIsAppliedAndCanBeTurnedOff() async throws {
        let upright = try await Self.generator("rotate-90").image()
        #expect(upright.image.width == 90 && upright.image.height == 160)
        #expect(upright.orientation == Orientation(rotation: 90, mirrored: false))
        let raw = try await Self.generator("rotate-90") { $0.appliesPreferredTrackTransform = false }.image()
        #expect(raw.image.width == 160 && raw.image.height == 90)
        #expect(raw.orientation == .identity)
    }

    @Test func anamorphicPixelsAreStretchedNotSquashed() async throws {
        let thumbnail = try await Self.generator("pasp-anamorphic") { $0.maximumSize = PixelSize(width: 0, height: 0) }.image()
        #expect(thumbnail.image.width == 341 && thumbnail.image.height == 144)
        let encoded = try await Self.generator("pasp-anamorphic") {
            $0.maximumSize = PixelSize(width: 0, height: 0)
            $0.apertureMode = .encodedPixels
        }.image()
        #expect(encoded.image.width == 256 && encoded.image.height == 144)
    }

    @Test func jpegOutput() async throws {
        let thumbnail = try await Self.generator("hevc-8bit") { $0.format = .jpeg(quality: 80) }.image()
        #expect(thumbnail.encoded.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func imagesReuseTheIndexFetchesAndDecoder() async throws {
        let generator = try Self.generator("h264-faststart")
        var actual: [Double] = []
        for await result in generator.images(at: [.seconds(1.0), .seconds(0.5), .seconds(1.0), .seconds(0.9)]) {
            actual.append(try result.thumbnail.actualTime)
        }
        #expect(actual == [0.96, 0.48, 0.96, 0.96])
        // The file (84 KB) is no longer than the first read: one read, and both keyframes (0.96 and 0.48) come from it.
        #expect(await generator.statistics.requests == 1)
    }

    @Test func coverArtComesFirstWithoutFetchingASample() async throws {
        let generator = try Self.generator("cover-art")
        var results: [Thumbnail] = []
        for try await thumbnail in generator.representations() { results.append(thumbnail) }
        #expect(results.count == 2)
        #expect(results[0].isCoverArt)
        #expect(results[0].requests <= 1)  // at most the index read
        #expect(results[0].image.width == 64 && results[0].image.height == 64)  // never upscaled
        #expect(!results[1].isCoverArt)
    }

    /// The cover art is held to the output limit a frame is held to: a padded box far past it (or a negative side) is
    /// refused as the frame's rendering refuses it, instead of sizing the canvas by the box (2^40 squared pixels
    /// overflowed the canvas's byte count; 65536 squared asked for 12 GiB).
    @Test(arguments: [PixelSize(width: 1 << 40, height: 1 << 40), PixelSize(width: 65_536, height: 65_536),
                      PixelSize(width: -1, height: 64)])
    func coverArtIsHeldToTheOutputLimit(_ box: PixelSize) async throws {
        let generator = try Self.generator("cover-art") {
            $0.maximumSize = box
            $0.fitMode = .pad
        }
        let error = await #expect(throws: ThumbnailError.self) { _ = try await generator.coverArt() }
        #expect(error?.code == .invalidOption)
        let frame = await #expect(throws: ThumbnailError.self) { _ = try await generator.image() }
        #expect(frame?.code == .invalidOption)
        #expect(error?.detail == frame?.detail, "cover art: \(error?.detail ?? "-"), frame: \(frame?.detail ?? "-")")
    }

    @Test func exactRepresentationsStartWithTheNearestKeyframe() async throws {
        let generator = try Self.generator("h264-bframes") {
            $0.requestedTimeToleranceBefore = .zero
            $0.requestedTimeToleranceAfter = .zero
        }
        var results: [Thumbnail] = []
        for try await thumbnail in generator.representations(at: .seconds(1.3)) { results.append(thumbnail) }
        #expect(results.map(\.isSyncSample) == [true, false])
        #expect(results.map(\.actualTime) == [1.44, 1.28])
    }

    @Test func cancellationStopsTheWork() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"))
        let generator = ThumbnailGenerator(source: source)
        let task = Task { try await generator.image() }
        #expect(await eventually { await source.waitingCount == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(await source.cancelledReads == 1)
    }

    @Test func audioOnlyFileHasNoVideo() async throws {
        await #expect(throws: ThumbnailError.self) { _ = try await Self.generator("audio-only").image() }
    }

    @Test func darkAndFlatFramesAreRecognised() throws {
        func frame(_ value: UInt8, noise: Bool = false) -> DecodedFrame {
            var luma = [UInt8](repeating: value, count: 64 * 64)
            if noise { for index in luma.indices { luma[index] = UInt8(truncatingIfNeeded: index &* 97 &+ index >> 3) } }
            let chroma = [UInt8](repeating: 128, count: 32 * 32)
            return DecodedFrame(planes: [.init(width: 64, height: 64, bytesPerRow: 64, data: luma),
                                         .init(width: 32, height: 32, bytesPerRow: 32, data: chroma),
                                         .init(width: 32, height: 32, bytesPerRow: 32, data: chroma)],
                                bitDepth: 8, chromaFormat: .yuv420,
                                colour: ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: false),
                                sampleIndex: 0, compositionTime: 0)
        }
        #expect(DarkFrameDetector.isDarkOrFlat(frame(16)))
        #expect(DarkFrameDetector.isDarkOrFlat(frame(128)))
        #expect(!DarkFrameDetector.isDarkOrFlat(frame(0, noise: true)))
    }

    @Test func skipDarkMovesPastAFlatKeyframe() async throws {
        // The one-frame fixture's frame is a real picture: skipping changes nothing there.
        let thumbnail = try await Self.generator("h264-faststart") { $0.skipsDarkFrames = true }.image(at: .seconds(0))
        #expect(thumbnail.actualTime == 0)
    }
}

/// Skipping near-black keyframes on a fade from black (ffprobe: keyframes at 0, 0.48, 0.96, 1.44 and 1.92 s;
/// the picture starts at 1.0 s).
@Suite struct SkipDarkFramesTests {
    @Test func darkKeyframesAreSkippedUntilThePictureStarts() async throws {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 64, height: 64)
        options.skipsDarkFrames = true
        let thumbnail = try await ThumbnailGenerator(path: Fixtures.path("dark-start"), options: options).image(at: .seconds(0))
        #expect(thumbnail.actualTime == 1.44)
        #expect(thumbnail.isSyncSample)
        options.skipsDarkFrames = false
        let plain = try await ThumbnailGenerator(path: Fixtures.path("dark-start"), options: options).image(at: .seconds(0))
        #expect(plain.actualTime == 0)
    }
}

/// Times as `Duration` and exact rational times, against ffprobe's packet times.
@Suite struct ThumbnailExactTimeTests {
    @Test func aDurationAsksForTheSameFrameAsSecondsAndTheActualTimeIsFFprobesPTS() async throws {
        let expected = try Fixtures.expectation("h264-faststart")
        let timescale = try #require(expected.timescale)
        let generator = try ThumbnailGeneratorTests.generator("h264-faststart")
        let byDuration = try await generator.image(at: .duration(.milliseconds(500)))
        let bySeconds = try await generator.image(at: .seconds(0.5))
        #expect(byDuration.actualMediaTime == bySeconds.actualMediaTime)
        // The keyframe nearest 0.5 s, by ffprobe's presentation times.
        let keyframes = expected.packets.filter(\.key).map(\.pts)
        let nearest = try #require(keyframes.min { abs(Double($0) / Double(timescale) - 0.5) < abs(Double($1) / Double(timescale) - 0.5) })
        #expect(byDuration.actualMediaTime == MediaTime(value: nearest, timescale: timescale))
        #expect(byDuration.actualMediaTime.timescale == timescale)
        #expect(byDuration.requestedMediaTime == MediaTime(value: 500, timescale: 1000))
        #expect(ThumbnailTime.duration(.milliseconds(1500)) == .rational(value: 1_500_000_000, timescale: 1_000_000_000))
    }
}
