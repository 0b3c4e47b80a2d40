import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing
import StreamManifests
import Thumbs

/// Animated previews of HLS and DASH streams: of a stream FFmpeg cut from an MP4 fixture (stream copy, so its coded
/// pictures are the movie's), the preview is the movie's own, frame for frame and pixel for pixel, across segments.
@Suite struct StreamAnimatedPreviewTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")

    static func options(start: Double, end: Double, fps: Double) -> AnimatedPreviewOptions {
        var options = AnimatedPreviewOptions()
        options.start = .seconds(start)
        options.end = .seconds(end)
        options.framesPerSecond = fps
        options.width = 160
        options.lossless = true
        return options
    }

    /// Stream, the movie it was cut from, the span and frame rate, the segments the span plays in (segments of one
    /// 0.48 s GOP, or of two in the fMP4 cut). At 2 fps from 0.175 s, the frame time 1.675 s is 0.245 s before the
    /// fMP4 cut's third segment starts (its keyframe at 1.92 s) and 0.235 s after the keyframe at 1.44 s inside the
    /// second: the movie shows the nearer, 1.44 s.
    static let cutStreams: [(String, String, Double, Double, Double, Int)] = [
        ("ffmpeg-hls-ts-h264-bframes/index.m3u8", "h264-bframes", 0.3, 2.3, 10, 5),
        ("ffmpeg-hls-ts-muxed-aac/index.m3u8", "audio-video", 0.3, 2.3, 10, 5),
        ("ffmpeg-hls-fmp4-h264-bframes/index.m3u8", "h264-bframes", 0.3, 2.3, 10, 3),
        ("ffmpeg-hls-fmp4-h264-bframes/index.m3u8", "h264-bframes", 0.175, 2.175, 2, 2),
        ("ffmpeg-hls-ts-h264-bframes/index.m3u8", "h264-bframes", 0.175, 2.175, 2, 4),
    ]

    @Test(arguments: cutStreams)
    func aCutStreamsPreviewIsTheMovies(_ stream: String, _ movie: String, _ start: Double, _ end: Double, _ fps: Double,
                                       _ segments: Int) async throws {
        let options = Self.options(start: start, end: end, fps: fps)
        let made = try await AnimatedPreviewMaker(media: .stream(StreamSession(input: FileInput(path: Self.folder.appendingPathComponent(stream).path))),
                                                        options: options).make()
        let original = try await AnimatedPreviewMaker(source: try FileByteSource(path: Fixtures.path(movie)), options: options).make()
        #expect(made.streamSegments.count == segments, "\(made.streamSegments.map(\.resource.description))")
        let times = made.frames.map { ($0.start.milliseconds, ($0.sourceTime.seconds * 1000).rounded(), $0.isSyncSample) }
        let movieTimes = original.frames.map { ($0.start.milliseconds, ($0.sourceTime.seconds * 1000).rounded(), $0.isSyncSample) }
        #expect(times.elementsEqual(movieTimes, by: ==), "\(times)\nthe movie's: \(movieTimes)")
        #expect(made.duration == original.duration)
        let (pictures, _) = try AnimatedWebPDecoder.frames(in: made.encoded)
        let (moviePictures, _) = try AnimatedWebPDecoder.frames(in: original.encoded)
        #expect(pictures.count == moviePictures.count)
        for (index, (picture, moviePicture)) in zip(pictures, moviePictures).enumerated() {
            let same = picture.image.pixels == moviePicture.image.pixels
            #expect(same, "frame \(index) of \(stream)")
        }
    }

    /// On real streams, a preview that starts at a keyframe ffmpeg drew (`StreamReferences.all`)
    /// shows that keyframe first, at its time, within 35 dB of ffmpeg's picture: Media3's CMAF DASH and HLS,
    /// livesim2's chunked segments, shaka's static DASH, and a keyframe inside shaka's HEVC TS segment.
    @Test(arguments: ["cmaf-dash-2.2s", "cmaf-hls-1s", "livesim2-4s", "shaka7401-static-4s", "ts-h265-5s"])
    func aRealStreamsPreviewStartsWithFFmpegsKeyframe(_ name: String) async throws {
        let reference = try #require(StreamReferences.all.first { $0.name == name })
        let manifest = StreamThumbnailTests.manifests[name] ?? reference.source
        let keyframeTime = try #require(Double(reference.ffmpegTime)) + reference.offset
        var options = Self.options(start: keyframeTime, end: keyframeTime + 1, fps: 2)
        options.width = reference.size[0]
        let made = try await AnimatedPreviewMaker(media: .stream(StreamSession(input: FileInput(path: Self.folder.appendingPathComponent(manifest).path))),
                                                        options: options).make()
        let first = try #require(made.frames.first)
        #expect(first.isSyncSample)
        #expect(abs(first.sourceTime.seconds - keyframeTime) < 0.01, "\(first.sourceTime.seconds) s")
        let (pictures, _) = try AnimatedWebPDecoder.frames(in: made.encoded)
        let picture = try #require(pictures.first).image
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("references/\(name).png"))))
        try #require(picture.width == expected.width && picture.height == expected.height)
        let rgb = stride(from: 0, to: picture.pixels.count, by: 4).flatMap { picture.pixels[$0 ..< $0 + 3] }
        let quality = psnr(rgb, expected.packed().pixels)
        #expect(quality >= 35, "\(name): psnr \(quality) dB")
    }

    /// A span must start inside the stream: not at or past the end of FFmpeg's cut (3 s by its playlist), nor
    /// before the first segment of shaka's live window (1,000 s).
    @Test func aStartOutsideTheStreamIsAnInvalidOption() async throws {
        for (manifest, start) in [("ffmpeg-hls-ts-h264-bframes/index.m3u8", 3.2), ("shaka-7401/dash_0.mpd", 0.5)] {
            let options = Self.options(start: start, end: start + 1, fps: 2)
            let error = await #expect(throws: ThumbnailError.self) {
                try await AnimatedPreviewMaker(media: .stream(StreamSession(input: FileInput(path: Self.folder.appendingPathComponent(manifest).path))),
                                                     options: options).make()
            }
            #expect(error?.code == .invalidOption, "\(manifest): \(String(describing: error))")
        }
    }

    /// A live DASH template without an end (shaka 7401's 2 s chunks, its availability start 7 s before the clock):
    /// the span ends where the newest whole segment does (6 s; the one from 6 s is still being made), so 5 s from
    /// 3 s is 3 s of preview, its pictures from the segments from 2 and 4 s.
    @Test func aLiveTemplatesSpanEndsAtItsNewestWholeSegment() async throws {
        let live = try LiveTemplateManifest()
        defer { live.remove() }
        let start = try #require(StreamDate(parsing: LiveTemplateManifest.availabilityStart)).sinceEpoch
        let session = StreamSession(input: FileInput(path: live.path), wallClock: { start + .seconds(7) })
        var options = Self.options(start: 3, end: 8, fps: 2)
        options.end = nil
        let made = try await AnimatedPreviewMaker(media: .stream(session), options: options).make()
        #expect(made.duration == .seconds(3))
        #expect(made.streamSegments.map { $0.timeRange.lowerBound } == [.seconds(2), .seconds(4)])
        #expect(made.frames.first?.start == .zero)
    }

    /// A span that starts in a segment the playlist marks as missing (EXT-X-GAP on FFmpeg's first TS segment): the
    /// first picture, the second segment's keyframe at 0.48 s, starts the animation, and nothing is read of the gap.
    @Test func aSpanStartingInAGapStartsWithTheFirstPictureAfterIt() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gap-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("ffmpeg-hls-ts-h264-bframes"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("index.m3u8")
        let text = try String(contentsOf: playlist, encoding: .utf8)
        try text.replacingOccurrences(of: "#EXTINF:0.480000,\nsegment0.ts", with: "#EXTINF:0.480000,\n#EXT-X-GAP\nsegment0.ts")
            .write(to: playlist, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("segment0.ts"))
        let made = try await AnimatedPreviewMaker(media: .stream(StreamSession(input: FileInput(path: playlist.path))),
                                                        options: Self.options(start: 0.1, end: 1.1, fps: 5)).make()
        let first = try #require(made.frames.first)
        #expect(first.start == .zero)
        #expect(abs(first.sourceTime.seconds - 0.48) < 0.001, "\(first.sourceTime.seconds) s")
        let (pictures, _) = try AnimatedWebPDecoder.frames(in: made.encoded)
        #expect(pictures.map(\.milliseconds) == made.frames.map { Int($0.start.milliseconds) })
        #expect(made.streamSegments.allSatisfy { !$0.resource.url.hasSuffix("segment0.ts") })
    }
}
