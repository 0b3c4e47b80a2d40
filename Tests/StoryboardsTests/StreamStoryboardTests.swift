import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import Storyboards
import StreamManifests
import Testing
import Thumbs

/// Storyboards of HLS and DASH streams: of the streams FFmpeg cut from the MP4 fixtures, the movie's own storyboard
/// (their segments hold one GOP each, or an I-frame playlist lists every keyframe); of the real streams, ffmpeg's
/// pictures of the keyframes the cues show; what they read, against the playlists' own byte ranges.
@Suite struct StreamStoryboardTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")

    /// Makes a storyboard of a stream in Fixtures/streams, keeping the images it writes, decoded.
    static func make(_ manifest: String, options: StoryboardOptions) async throws -> (storyboard: Storyboard, images: [String: RGBImage], fetched: FetchStats) {
        var files: [String: RGBImage] = [:]
        var order: [String] = []
        let meter = FetchMeter()
        let input = FileInput(path: folder.appendingPathComponent(manifest).path)
        let storyboard = try await meter.measure {
            try await StoryboardMaker(media: .stream(StreamSession(input: input)), options: options).make { name, bytes in
                files[name] = try ImageDecoder().decode(bytes)
                order.append(name)
            }
        }
        #expect(order == storyboard.sheets.map(\.fileName), "images are written in order, once each")
        return (storyboard, files, meter.statistics)
    }

    /// The tile of `cue`, cut from its sheet.
    static func tile(of cue: Storyboard.Cue, in storyboard: Storyboard, images: [String: RGBImage]) throws -> RGBImage {
        let sheet = try #require(images[storyboard.sheets[cue.sheet].fileName])
        return StoryboardOracles.crop(sheet, x: cue.region.x, y: cue.region.y, width: cue.region.width, height: cue.region.height)
    }

    /// Stream, the movie it was cut from: each segment holds one GOP (`-hls_time 0.4`, keyframes further apart), or
    /// an I-frame playlist lists every keyframe, so the stream's keyframes are the movie's.
    static let cutStreams = [
        ("ffmpeg-hls-ts-h264-bframes/index.m3u8", "h264-bframes"),
        ("ffmpeg-hls-ts-hevc-single-file/index.m3u8", "hevc-8bit"),
        ("ffmpeg-hls-ts-muxed-aac/index.m3u8", "audio-video"),
        ("ffmpeg-hls-ts-iframes/master.m3u8", "audio-video"),
    ]

    /// Cue by cue, the keyframe shown and its tile are the movie storyboard's, pixel for pixel, with the interval
    /// asked for; the tile size is the movie's.
    @Test(arguments: cutStreams)
    func aCutStreamsStoryboardIsTheMovies(_ stream: String, _ movie: String) async throws {
        let options = StoryboardOracles.options(interval: 0.3, columns: 4, rows: 3, tileWidth: 96, format: .png)
        let (made, images, _) = try await Self.make(stream, options: options)
        let (original, files) = try await StoryboardOracles.make(movie, options: options)
        var originalImages: [String: RGBImage] = [:]
        for (name, bytes) in files { originalImages[name] = try StoryboardOracles.decode(name, bytes) }
        #expect(made.tileSize == original.tileSize)
        #expect(made.interval == .milliseconds(300))
        // The playlist's durations and the track's may differ by a frame: the cues both have are compared.
        #expect(abs(made.cues.count - original.cues.count) <= 1, "\(made.cues.count) cues, the movie's \(original.cues.count)")
        for (index, (cue, movieCue)) in zip(made.cues, original.cues).enumerated() {
            #expect(cue.timeRange.lowerBound == movieCue.timeRange.lowerBound)
            #expect(abs(cue.keyframeTime.seconds - movieCue.keyframeTime.seconds) < 0.001,
                    "cue \(index): keyframe at \(cue.keyframeTime.seconds) s, the movie's at \(movieCue.keyframeTime.seconds) s")
            let tile = try Self.tile(of: cue, in: made, images: images)
            let movieTile = try Self.tile(of: movieCue, in: original, images: originalImages)
            #expect(tile == movieTile, "cue \(index) of \(stream)")
        }
        #expect(made.keyframeCount == original.keyframeCount)
    }

    /// The I-frame playlist's keyframes are read by their byte ranges alone: what the storyboard reads is the
    /// playlists, the 1 KiB probe for the program tables of each file once, and each keyframe's range; never a whole
    /// segment. The ranges and files are read from the playlist's text here.
    @Test func anIFramePlaylistsKeyframesAreReadAlone() async throws {
        let options = StoryboardOracles.options(interval: 0.25, format: .png)
        let (made, _, fetched) = try await Self.make("ffmpeg-hls-ts-iframes/master.m3u8", options: options)
        let playlistFolder = Self.folder.appendingPathComponent("ffmpeg-hls-ts-iframes")
        let iFrames = try String(contentsOf: playlistFolder.appendingPathComponent("iframes.m3u8"), encoding: .utf8)
        let lengths = iFrames.split(separator: "\n").compactMap { line -> UInt64? in
            guard line.hasPrefix("#EXT-X-BYTERANGE:") else { return nil }
            return UInt64(line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@")[0])
        }
        #expect(made.keyframeCount == lengths.count, "every listed keyframe is a cue's")
        var playlists: UInt64 = 0
        for name in ["master.m3u8", "iframes.m3u8"] {
            playlists += UInt64(try Data(contentsOf: playlistFolder.appendingPathComponent(name)).count)
        }
        // The program tables are read once per resource (its first KiB), then each keyframe's range alone.
        let resources = Set(iFrames.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty })
        let most = playlists + UInt64(resources.count) * 1_024 + lengths.reduce(0, +)
        #expect(fetched.bytes <= most, "\(fetched.bytes) bytes read; the playlists, the probes and the ranges are \(most)")
        #expect(fetched.requests <= 2 + resources.count + lengths.count)
        #expect(made.keyframeBytes == fetched.bytes)
    }

    /// The references of real streams whose keyframe is a segment's start (or an I-frame playlist's entry), with the
    /// manifest they are of (ffmpeg read the media where it refuses the manifest).
    static let realReferences = [
        ("cmaf-hls-1s", "media3-cmaf-multi-segment/playlist.m3u8"),
        ("cmaf-dash-2.2s", "media3-cmaf-multi-segment/manifest.mpd"),
        ("shaka7401-static-4s", "shaka-7401/dash_2.mpd"),
        ("cea608-ts-0s", "media3-hls-cea608/manifest.m3u8"),
        ("ts-h265-0s", "shaka-hls-ts-h265/hevc.m3u8"),
        ("lcevc-ts-iframe-6.467s", "shaka-lcevc-sei-ts/master.m3u8"),
        // Three periods: VP9 in WebM, H.264 in MP4, VP9 in WebM, each a SegmentBase file.
        ("multitype-period1", "shaka-dash-multitype-variant/dash.mpd"),
        ("multitype-period2", "shaka-dash-multitype-variant/dash.mpd"),
        ("multitype-period3", "shaka-dash-multitype-variant/dash.mpd"),
    ]

    /// A real stream's storyboard at 160 pixels wide shows, at the cue nearest ffmpeg's keyframe, ffmpeg's picture
    /// of it (at least 35 dB), with its time; the WebVTT track follows the rules.
    @Test(arguments: realReferences)
    func aRealStreamsTileIsFFmpegsPicture(_ name: String, _ manifest: String) async throws {
        let reference = try #require(StreamReferences.all.first { $0.name == name })
        let options = StoryboardOracles.options(interval: 0.1, columns: 10, rows: 10, tileWidth: 160, format: .png)
        let (made, images, _) = try await Self.make(manifest, options: options)
        #expect([made.tileSize.width, made.tileSize.height] == reference.size)
        let keyframeTime = try #require(Double(reference.ffmpegTime)) + reference.offset
        let cue = try #require(made.cues.first { abs($0.keyframeTime.seconds - keyframeTime) < 0.01 },
                               "no cue shows the keyframe at \(keyframeTime) s")
        let tile = try Self.tile(of: cue, in: made, images: images)
        let path = Self.folder.appendingPathComponent("references/\(name).png").path
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        try #require(tile.width == expected.width && tile.height == expected.height)
        let quality = psnr(tile.packed().pixels, expected.packed().pixels)
        #expect(quality >= 35, "\(name): psnr \(quality) dB")
        let end = StoryboardOracles.milliseconds(made.duration)
        let start = StoryboardOracles.milliseconds(made.cues[0].timeRange.lowerBound)
        #expect(start == 0 || made.cues[0].timeRange.lowerBound > .zero)
        for (index, cue) in made.cues.enumerated() {
            #expect(StoryboardOracles.milliseconds(cue.timeRange.lowerBound) == start + 100 * Int64(index))
        }
        #expect(StoryboardOracles.milliseconds(made.cues[made.cues.count - 1].timeRange.upperBound) == end)
    }

    /// Every cue needs its keyframe's picture: a first segment whose sync sample is a P slice (shaka 6339: the trun
    /// flags it as a sync sample; its NAL units are an access unit delimiter and a non-IDR slice) stops the storyboard
    /// with the decoder's typed error, saying which sample.
    @Test func aKeyframeThatCannotBeReadIsATypedError() async throws {
        let options = StoryboardOracles.options(interval: 1)
        let notIDR = await #expect(throws: DecodeError.self) {
            _ = try await Self.make("shaka-6339/master.mpd", options: options)
        }
        #expect("\(notIDR.map { "\($0)" } ?? "")".contains("sample 0"))
    }

    /// A live DASH template without a SegmentTimeline or an end (written over shaka 7401's 2 s segments) is
    /// storyboarded up to its newest whole segment by the clock: 7 s after its availability start the segment of
    /// 6-8 s is being made, so 1 s cues cover 0-6 s and show the keyframes at 0, 2 and 4 s; the tile at 2 s is
    /// ffmpeg's picture of chunk 2 (`shaka7401-live0-newest`). Before its first segment is whole there is nothing to
    /// show: a typed error, with the manifest alone read.
    @Test func aLiveTemplateIsStoryboardedUpToItsNewestSegment() async throws {
        let live = try LiveTemplateManifest()
        defer { live.remove() }
        let start = try #require(StreamDate(parsing: LiveTemplateManifest.availabilityStart)).sinceEpoch
        let options = StoryboardOracles.options(interval: 1, tileWidth: 160, format: .png)
        var images: [String: RGBImage] = [:]
        let session = StreamSession(input: FileInput(path: live.path), wallClock: { start + .seconds(7) })
        let made = try await StoryboardMaker(media: .stream(session), options: options).make { name, bytes in
            images[name] = try ImageDecoder().decode(bytes)
        }
        #expect(made.cues.map { StoryboardOracles.milliseconds($0.timeRange.lowerBound) } == [0, 1000, 2000, 3000, 4000, 5000])
        #expect(StoryboardOracles.milliseconds(made.duration) == 6000)
        #expect(made.cues.map { ($0.keyframeTime.seconds * 1000).rounded() } == [0, 0, 2000, 2000, 4000, 4000])
        let tile = try Self.tile(of: made.cues[2], in: made, images: images)
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(
            "references/shaka7401-live0-newest.png"))))
        try #require(tile.width == expected.width && tile.height == expected.height)
        #expect(psnr(tile.packed().pixels, expected.packed().pixels) >= 35)

        let meter = FetchMeter()
        let early = StreamSession(input: FileInput(path: live.path), wallClock: { start + .seconds(1) })
        let error = await #expect(throws: StoryboardError.self) {
            try await meter.measure {
                _ = try await StoryboardMaker(media: .stream(early), options: options).make { _, _ in }
            }
        }
        #expect(error?.code == .noDuration)
        #expect(meter.statistics.requests <= 1, "the manifest alone")
    }
}
