import ByteSources
import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs
import TransportStream

/// Thumbnails of HLS streams of MPEG-TS segments that FFmpeg's muxers cut from the MP4 fixtures
/// (`Fixtures/streams/make-ffmpeg-streams.sh`, stream copy): the picture of the stream at a time is the picture of
/// the movie at that time, pixel for pixel, and so is its time.
@Suite struct TransportStreamThumbnailTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")

    /// Stream, the movie it was cut from.
    static let streams = [
        ("ffmpeg-hls-ts-h264-bframes/index.m3u8", "h264-bframes"),
        ("ffmpeg-hls-ts-hevc-single-file/index.m3u8", "hevc-8bit"),
        ("ffmpeg-hls-ts-muxed-aac/index.m3u8", "audio-video"),
    ]

    static func options(exact: Bool) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        return options
    }

    static func pictures(_ stream: String, _ movie: String, at seconds: Double,
                         exact: Bool) async throws -> (stream: Thumbnail, movie: Thumbnail) {
        let options = options(exact: exact)
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: folder.appendingPathComponent(stream).path))), options: options)
        let made = try await generator.image(at: .seconds(seconds))
        let original = try await ThumbnailGenerator(path: Fixtures.path(movie), options: options).image(at: .seconds(seconds))
        return (made, original)
    }

    /// Each segment holds one GOP: the nearest keyframe is the nearer segment start, as in the movie. 1.3 s is
    /// nearer the keyframe at 1.44 s, which starts the segment after the one playing.
    @Test(arguments: streams)
    func theNearestKeyframeIsTheMoviesPicture(_ stream: String, _ movie: String) async throws {
        for seconds in [0, 0.5, 1.0, 1.3, 2.9] {
            let (made, original) = try await Self.pictures(stream, movie, at: seconds, exact: false)
            #expect(made.image == original.image, "\(stream) at \(seconds) s")
            #expect(abs(made.actualTime - original.actualTime) < 0.001,
                    "\(stream) at \(seconds) s: \(made.actualTime) s, the movie's \(original.actualTime) s")
            #expect(made.isSyncSample)
            // The playlist (or its segment list) and reads of one segment.
            #expect(made.requests <= 3, "\(stream) at \(seconds) s")
        }
    }

    /// Exact frames are decoded from the segment's keyframe up to the time; B-frames (H.264) and leading pictures
    /// that show before their CRA picture (HEVC) are in decoding order after it. Pictures nothing refers to are left
    /// out, as a movie's sdtp lets its decode leave them out: the written movie's sdtp comes from the slices' NAL
    /// unit headers.
    @Test(arguments: streams)
    func theExactFrameIsTheMoviesFrame(_ stream: String, _ movie: String) async throws {
        for seconds in [0.3, 1.0, 2.1, 2.95] {
            let (made, original) = try await Self.pictures(stream, movie, at: seconds, exact: true)
            #expect(made.image == original.image, "\(stream) at \(seconds) s")
            #expect(abs(made.actualTime - original.actualTime) < 0.001,
                    "\(stream) at \(seconds) s: \(made.actualTime) s, the movie's \(original.actualTime) s")
            // hevc-8bit's sdtp marks what the bitstream says; the H.264 movies have none, so their decodes take the
            // pictures nothing refers to (nal_ref_idc 0) that the stream's leaves out.
            if movie == "hevc-8bit" {
                #expect(made.decodedSamples == original.decodedSamples, "\(stream) at \(seconds) s")
            } else {
                #expect(made.decodedSamples <= original.decodedSamples, "\(stream) at \(seconds) s")
            }
        }
    }

    /// A second picture of the same segment goes on from the first's reads: the segment is not read again.
    @Test func aSecondPictureOfASegmentReadsNothingAgain() async throws {
        let input = FileInput(path: Self.folder.appendingPathComponent("shaka-hls-ts-h265/hevc.m3u8").path)
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: input)), options: Self.options(exact: true))
        let first = try await generator.image(at: .seconds(5))
        let second = try await generator.image(at: .seconds(4))
        #expect(first.requests >= 3)
        #expect(second.requests == 0)
        #expect(try first.position.segment.number == second.position.segment.number)
    }

    /// An I-frame playlist names every keyframe with its bytes: with the default tolerance the nearest one is read,
    /// also inside a segment (two GOPs each here), as the movie's nearest keyframe. What is read: the master, the
    /// I-frame playlist, the program tables at the start of the keyframe's file (its first KiB, or up to the
    /// keyframe's range) and the range, each once; not the media playlist.
    @Test func anIFramePlaylistGivesTheNearestKeyframeInsideASegment() async throws {
        let folder = Self.folder.appendingPathComponent("ffmpeg-hls-ts-iframes")
        let iFrames = try String(contentsOf: folder.appendingPathComponent("iframes.m3u8"), encoding: .utf8)
        for seconds in [0.3, 0.7, 1.2, 1.7, 2.6, 2.95] {
            let generator = ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: folder.appendingPathComponent("master.m3u8").path))))
            let made = try await generator.image(at: .seconds(seconds))
            let original = try await ThumbnailGenerator(path: Fixtures.path("audio-video")).image(at: .seconds(seconds))
            #expect(made.image == original.image, "at \(seconds) s")
            #expect(abs(made.actualTime - original.actualTime) < 0.001,
                    "at \(seconds) s: \(made.actualTime) s, the movie's \(original.actualTime) s")
            #expect(try made.position.rendition.isIFrameOnly)
            let range = try #require(try made.position.segment.resource.byteRange)
            #expect(iFrames.contains("#EXT-X-BYTERANGE:\(range.count)@\(range.lowerBound)"))
            let texts = try ["master.m3u8", "iframes.m3u8"].map {
                try #require(try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size] as? Int)
            }.reduce(0, +)
            #expect(made.requests == 4, "at \(seconds) s")
            // The tables: the first KiB of the file, or less where the keyframe's range starts before it.
            #expect(made.bytesFetched == UInt64(texts) + min(1024, range.lowerBound) + UInt64(range.count),
                    "at \(seconds) s")
        }
    }

    /// The newest keyframe is the I-frame playlist's last: the movie's last keyframe.
    @Test func theNewestKeyframeIsTheIFramePlaylistsLast() async throws {
        let master = Self.folder.appendingPathComponent("ffmpeg-hls-ts-iframes/master.m3u8").path
        let made = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: master)))).image(at: .latest)
        let original = try await ThumbnailGenerator(path: Fixtures.path("audio-video")).image(at: .seconds(2.99))
        #expect(try made.position.rendition.isIFrameOnly)
        #expect(made.image == original.image)
        #expect(abs(made.actualTime - original.actualTime) < 0.001, "\(made.actualTime) s")
    }

    /// Exact times do not use the I-frame playlist: the frame is decoded from the segment playing.
    @Test func anExactTimeReadsTheMediaPlaylistsSegment() async throws {
        let master = Self.folder.appendingPathComponent("ffmpeg-hls-ts-iframes/master.m3u8").path
        let made = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: master))), options: Self.options(exact: true))
            .image(at: .seconds(1.7))
        let original = try await ThumbnailGenerator(path: Fixtures.path("audio-video"), options: Self.options(exact: true))
            .image(at: .seconds(1.7))
        #expect(try !made.position.rendition.isIFrameOnly)
        #expect(made.image == original.image)
        #expect(abs(made.actualTime - original.actualTime) < 0.001)
    }

    /// An I-frames-only playlist alone, with `--exact`: a keyframe's own time is that keyframe, and another time is
    /// the frame the movie has there, read on from the keyframe's range in its file (up to the next keyframe, or to
    /// the file's end for a file's last). It was "the stream has no video rendition that is not encrypted".
    @Test(arguments: [0.0, 0.48, 0.7, 1.2, 1.7, 2.95])
    func anIFramesOnlyPlaylistGivesExactFrames(seconds: Double) async throws {
        let path = Self.folder.appendingPathComponent("ffmpeg-hls-ts-iframes/iframes.m3u8").path
        let made = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: path))), options: Self.options(exact: true))
            .image(at: .seconds(seconds))
        let original = try await ThumbnailGenerator(path: Fixtures.path("audio-video"), options: Self.options(exact: true))
            .image(at: .seconds(seconds))
        #expect(try made.position.rendition.isIFrameOnly)
        #expect(made.image == original.image, "at \(seconds) s")
        #expect(abs(made.actualTime - original.actualTime) < 0.001,
                "at \(seconds) s: \(made.actualTime) s, the movie's \(original.actualTime) s")
    }

    /// Two pictures of one segment asked for at once: the reads take turns, so neither feeds the demuxer bytes the
    /// other already gave it, and both are the pictures each makes alone.
    @Test func twoPicturesOfOneSegmentAtOnceAreEachTheirOwn() async throws {
        let path = Self.folder.appendingPathComponent("shaka-hls-ts-h265/hevc.m3u8").path
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: path))), options: Self.options(exact: true))
        async let first = generator.image(at: .seconds(5))
        async let second = generator.image(at: .seconds(7.5))
        let together = try await [first, second]
        for (made, seconds) in zip(together, [5.0, 7.5]) {
            let alone = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: path))), options: Self.options(exact: true))
                .image(at: .seconds(seconds))
            #expect(made.image == alone.image, "at \(seconds) s")
            #expect(made.actualTime == alone.actualTime, "at \(seconds) s")
        }
    }

    /// A playlist whose segments are not MPEG-TS (here an MP4 file named as a segment without an init segment) says
    /// what it found.
    @Test func aSegmentThatIsNotATransportStreamIsNamed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ts-not-ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try Fixtures.bytes("h264-bframes")).write(to: directory.appendingPathComponent("movie.mp4"))
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\nmovie.mp4\n#EXT-X-ENDLIST\n"
        try Data(playlist.utf8).write(to: directory.appendingPathComponent("index.m3u8"))
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: directory.appendingPathComponent("index.m3u8").path))))
        let error = try await #require(throws: TransportStreamError.self) { try await generator.image(at: .seconds(1)) }
        #expect(error.code == .notTransportStream)
        #expect(error.input?.hasSuffix("movie.mp4") == true)
    }
}
