import ByteSources
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// Errors say what and where: the input, the time asked for, the sample; each distinct case its own code; a
/// failing time in a run of times does not end the run.
@Suite struct ThumbnailErrorTests {
    @Test func errorsOfAGeneratorNameTheInputAndTheTime() async throws {
        let path = Fixtures.path("h264-p-only")
        var options = ThumbnailOptions()
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        options.limits.maximumDecodedSamples = 2
        let times = try ThumbnailLimitsTests.endsOfGOPs("h264-p-only")
        let error = try await #require(throws: ThumbnailError.self) {
            _ = try await ThumbnailGenerator(path: path, options: options).image(at: .seconds(times[0]))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.input == path)
        #expect(error.time == .seconds(times[0]))
        #expect(error.sample != nil)
        #expect(error.description.hasPrefix("\(path), at \(times[0]) s, sample \(error.sample ?? -1): "))
        // A frame number is named as it was asked for: frame 11 ends the first GOP (12 frames, 0.48 s at 25 fps).
        let byFrame = try await #require(throws: ThumbnailError.self) {
            _ = try await ThumbnailGenerator(path: path, options: options).image(at: .frame(11))
        }
        #expect(byFrame.code == .limitExceeded && byFrame.time == .frame(11))
        #expect(byFrame.description.hasPrefix("\(path), at frame 11, sample "))
        #expect(ThumbnailTime.fraction(0.07).description == "7.0 % of the duration")  // not 7.000000000000001
    }

    @Test func noVideoTrackAndAVideoTrackWithoutSamplesAreDifferentCodes() async throws {
        let audio = try await #require(throws: ThumbnailError.self) {
            _ = try await ThumbnailGenerator(path: Fixtures.path("audio-only")).image()
        }
        #expect(audio.code == .noVideo)
        // ffprobe's stream count of the fixture is the oracle for the tracks the message lists.
        let expectation = try Fixtures.expectation("audio-only")
        #expect(expectation.streamCount == 1 && expectation.audioStreamCount == 1)
        #expect(audio.description.hasSuffix(": the movie has no video track, only 1 audio track"))
        #expect((audio as any Error).localizedDescription == audio.description)
        // The init segment of a fragmented movie: a video track, no samples.
        let initSegment = Array(try Fixtures.bytes("fragmented").prefix(742))
        let empty = try await #require(throws: ThumbnailError.self) {
            _ = try await ThumbnailGenerator(source: MemoryByteSource(initSegment)).image()
        }
        #expect(empty.code == .noSamples)
    }

    @Test func sampleTableErrorsNameTheTrackTablesAndTheirOffsets() async throws {
        let movie = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path("h264-bframes"))).movie
        let track = try movie.thumbnailTrack()
        let error = try #require(throws: MP4Error.self) { _ = try track.samples.sample(at: track.samples.count) }
        #expect(error.path.hasPrefix("moov/trak"))
        #expect(error.path.hasSuffix("/stbl"))
        #expect(error.offset > 0)
    }

    @Test func aTimeThatFailsInARunOfTimesGivesItsErrorAndTheRunGoesOn() async throws {
        let generator = try ThumbnailGenerator(path: Fixtures.path("h264-faststart"))
        var results: [ThumbnailGenerator.TimedResult] = []
        for await result in generator.images(at: [.seconds(0.5), .seconds(.nan), .rational(value: 1, timescale: 0), .seconds(1)]) {
            results.append(result)
        }
        try #require(results.count == 4)
        #expect([results[0], results[2], results[3]].map(\.requestedTime) == [.seconds(0.5), .rational(value: 1, timescale: 0), .seconds(1)])
        #expect((try? results[0].thumbnail) != nil)
        #expect(throws: ThumbnailError.self) { try results[1].thumbnail }
        #expect(throws: ThumbnailError.self) { try results[2].thumbnail }
        #expect((try? results[3].thumbnail) != nil)
    }

    /// With `import Thumbs`, every error below it reads the same through `localizedDescription` as through
    /// `description` (Foundation's default would be "The operation could not be completed").
    @Test func localizedDescriptionIsTheDescriptionForEveryErrorBelow() async throws {
        let text = Array("WEBVTT\n\n".utf8) + Array(repeating: UInt8(0x20), count: 100)
        let notAMovie = try await #require(throws: MP4Error.self) { _ = try await MovieLocator().locate(in: MemoryByteSource(text)) }
        #expect(notAMovie.code == .notAMovie)
        #expect((notAMovie as any Error).localizedDescription == notAMovie.description)
        let decode = DecodeError(.decoderRejected, decoder: "openh264", sampleIndex: 3, "rejected the sample (state 0x4)")
        #expect(decode.description == "openh264, sample 3: rejected the sample (state 0x4)")
        #expect((decode as any Error).localizedDescription == decode.description)
        let unreadable = try #require(throws: ReadError.self) { _ = try ThumbnailGenerator(path: "/nonexistent/movie.mp4") }
        #expect((unreadable as any Error).localizedDescription == unreadable.description)
        #expect(unreadable.description.hasPrefix("/nonexistent/movie.mp4: cannot open the file"))
    }
}
