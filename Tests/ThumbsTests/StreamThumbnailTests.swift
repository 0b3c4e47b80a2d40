import ByteSources
import FrameDecode
import Foundation
import MP4BoxTestSupport
import StreamManifests
import Testing
import Thumbs

/// Thumbnails of the real streams in Fixtures/streams, read from disk, against ffmpeg's pictures of the same keyframes
/// (Fixtures/streams/make-expectations.py, `references`).
@Suite struct StreamThumbnailTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")

    /// The manifest a reference's picture is of, where ffmpeg read the media instead (it refuses shaka 6339's manifest,
    /// reads shaka's SegmentBase periods as one of length 0, and shows livesim2's 8 s picture at 4 s).
    static let manifests = [
        "shaka6339-19.9s": "shaka-6339/master.mpd",
        "multitype-period1": "shaka-dash-multitype-variant/dash.mpd",
        "multitype-period2": "shaka-dash-multitype-variant/dash.mpd",
        "multitype-period3": "shaka-dash-multitype-variant/dash.mpd",
        "livesim2-4s": "livesim2-testpic-alt-seg-dur-stl/Manifest.mpd",
        "ts-h265-0s": "shaka-hls-ts-h265/hevc.m3u8",
        "ts-h265-5s": "shaka-hls-ts-h265/hevc.m3u8",
        "lcevc-ts-iframe-6.467s": "shaka-lcevc-sei-ts/master.m3u8",
        "mts-interlaced-0s": "filetype-mts-interlaced/index.m3u8",
    ]

    /// The references only a build with the FFmpegDecoders trait decodes (a default build's error for them is checked
    /// by `InterlacedStreamTests`).
    static let needingFFmpegDecoders: Set = ["mts-interlaced-0s"]

    /// The references this build gives pictures of.
    static var decodable: [StreamReferences.Reference] {
        #if FFmpegDecoders
        StreamReferences.all
        #else
        StreamReferences.all.filter { !needingFFmpegDecoders.contains($0.name) }
        #endif
    }

    /// The references asked for exactly (tolerance zero): a keyframe inside a TS segment, which the default
    /// tolerance does not look for (it takes the nearer segment start).
    static let exact: Set = ["ts-h265-5s"]

    /// The live manifests whose newest keyframe a reference is (`ThumbnailTime.latest`): shaka 7401's two snapshots of one
    /// live stream, the later listing one more segment in its last period.
    static let newest = [
        "shaka7401-live0-newest": "shaka-7401/dash_0.mpd",
        "shaka7401-live1-newest": "shaka-7401/dash_1.mpd",
    ]

    static func generator(_ manifest: String, maximumSize: Int = 160, exact: Bool = false) -> ThumbnailGenerator {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: maximumSize, height: maximumSize)
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        return ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: folder.appendingPathComponent(manifest).path))), options: options)
    }

    @Test(arguments: decodable)
    func keyframeMatchesFFmpeg(_ reference: StreamReferences.Reference) async throws {
        let made: Thumbnail
        if let live = Self.newest[reference.name] {
            made = try await Self.generator(live).image(at: .latest)
        } else {
            // The time asked for is on the stream: a file ffmpeg read starts at the offset.
            let manifest = Self.manifests[reference.name] ?? reference.source
            made = try await Self.generator(manifest, exact: Self.exact.contains(reference.name))
                .image(at: .seconds(reference.seconds + reference.offset))
        }
        let image = made.image
        let path = Self.folder.appendingPathComponent("references/\(reference.name).png").path
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect([image.width, image.height] == reference.size)
        #expect([expected.width, expected.height] == reference.size)
        try #require(image.width == expected.width && image.height == expected.height)
        let quality = psnr(image.packed().pixels, expected.packed().pixels)
        #expect(quality >= 35, "\(reference.name): psnr \(quality) dB")
        // The keyframe's time: ffmpeg's (with -copyts) and the offset; shaka 6339's SegmentList gives each segment
        // 9.982 s where its frames take 9.979 s, so its third segment starts at 19.964 s on the stream and its
        // keyframe at 19.958 s in the file.
        let ffmpegTime = try #require(Double(reference.ffmpegTime)) + reference.offset
        #expect(abs(made.actualTime - ffmpegTime) < 0.01, "\(reference.name): \(made.actualTime) s")
        #expect(made.isSyncSample)
    }

    /// The references whose source is a TS file (shaka's HEVC and LCEVC segments, file-type's 1080i camcorder clip),
    /// that file read on its own, as a bare transport stream: ffmpeg's picture of the same keyframe at the same time
    /// (the file's first picture is at 0 s, as the stream's is).
    @Test(arguments: decodable.filter { reference in [".ts", ".mts"].contains { reference.source.hasSuffix($0) } })
    func theSegmentFilesOnTheirOwnGiveFFmpegsPicture(_ reference: StreamReferences.Reference) async throws {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        if Self.exact.contains(reference.name) {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        let input = FileInput(path: Self.folder.appendingPathComponent(reference.source).path)
        let made = try await Media.withMedia(of: input) { media in
            guard case .stream = media else { throw CancellationError() }
            return try await ThumbnailGenerator(media: media, options: options).image(at: .seconds(reference.seconds + reference.offset))
        }
        let path = Self.folder.appendingPathComponent("references/\(reference.name).png").path
        let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        try #require(made.image.width == expected.width && made.image.height == expected.height)
        let quality = psnr(made.image.packed().pixels, expected.packed().pixels)
        #expect(quality >= 35, "\(reference.name): psnr \(quality) dB")
        let ffmpegTime = try #require(Double(reference.ffmpegTime)) + reference.offset
        #expect(abs(made.actualTime - ffmpegTime) < 0.01, "\(reference.name): \(made.actualTime) s")
    }

    /// What a thumbnail reads: the playlists, the init segment, and the segment's head (16 KiB: its moof and, in
    /// this small segment, the whole keyframe).
    @Test func readsThePlaylistsTheInitSegmentAndOneSegment() async throws {
        let made = try await Self.generator("media3-cmaf-multi-segment/playlist.m3u8").image(at: .seconds(1))
        let files = ["playlist.m3u8", "stream_1.m3u8", "video_init.mp4", try made.position.segment.resource.url.split(separator: "/").last.map(String.init) ?? ""]
        let sizes = try files.map { name in
            try #require(try FileManager.default.attributesOfItem(atPath: Self.folder.appendingPathComponent("media3-cmaf-multi-segment/\(name)").path)[.size] as? Int)
        }
        #expect(made.requests == 4)
        #expect(made.bytesFetched <= UInt64(sizes.reduce(0, +)))
        #expect(try made.position.segment.resource.url.hasSuffix("video_5.m4s"))
        #expect(try made.position.rendition.width == 640)
    }

    /// The first read of a fragmented segment takes its moof, and the start of its first keyframe only when that is
    /// the picture: FFmpeg's fMP4 cut of h264-bframes has two GOPs a segment (keyframes at 0.96 and 1.44 s in the
    /// second, by ffprobe), its moof within the first 4 KiB (the file's own box sizes). At 1.5 s the picture is the
    /// keyframe inside the segment: the head read is 4 KiB, then that keyframe's bytes; at 0.96 s it is the first
    /// keyframe: the head read is 16 KiB.
    @Test func aSegmentsFirstReadReachesItsFirstKeyframeOnlyWhenThatIsThePicture() async throws {
        let folder = "ffmpeg-hls-fmp4-h264-bframes"
        let segment = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent("\(folder)/segment1.m4s")))
        var moofEnd = 0
        while moofEnd + 8 <= segment.count {
            let size = segment[moofEnd ..< moofEnd + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: segment[moofEnd + 4 ..< moofEnd + 8], as: UTF8.self)
            moofEnd += size
            if type == "moof" || size < 8 { break }
        }
        #expect(moofEnd > 0 && moofEnd <= 4096, "the moof ends at \(moofEnd)")

        let insideGenerator = Self.generator("\(folder)/index.m3u8")
        let inside = try await insideGenerator.image(at: .seconds(1.5))
        #expect(try inside.position.segment.resource.url.hasSuffix("segment1.m4s"))
        #expect(abs(inside.actualTime - 1.44) < 0.001, "\(inside.actualTime) s")
        let reads = await insideGenerator.statistics.log.dropFirst(2)  // the playlist, the init segment
        #expect(reads.first?.start == 0 && reads.first?.end == 4096, "\(reads.map { ($0.start, $0.end ?? 0) })")
        #expect(reads.count == 2)
        #expect(reads.reduce(0) { $0 + $1.bytes } < UInt64(segment.count) / 2)

        let startGenerator = Self.generator("\(folder)/index.m3u8")
        let start = try await startGenerator.image(at: .seconds(0.96))
        #expect(try start.position.segment.resource.url.hasSuffix("segment1.m4s"))
        #expect(abs(start.actualTime - 0.96) < 0.001, "\(start.actualTime) s")
        let head = await startGenerator.statistics.log.dropFirst(2).first
        #expect(head?.start == 0 && head?.end == 16384)
    }

    /// A DASH SegmentList of one segment and no durations makes that segment last Int64.max ticks: its head is read
    /// as a long segment's (16 KiB), not sized by that length (which trapped), and the picture is its keyframe
    /// nearest the time: of segment1.m4s of FFmpeg's fMP4 cut, its keyframe 0.48 s in (ffprobe: 1.44 s in the movie).
    @Test func aSegmentWithoutADurationIsReadWithALongSegmentsHead() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("no-duration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["init.mp4", "segment1.m4s"] {
            try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("ffmpeg-hls-fmp4-h264-bframes/\(name)"),
                                             to: folder.appendingPathComponent(name))
        }
        let manifest = """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period><AdaptationSet mimeType="video/mp4">
            <Representation id="v" bandwidth="1" width="320" height="240"><SegmentList>
            <Initialization sourceURL="init.mp4"/><SegmentURL media="segment1.m4s"/>
            </SegmentList></Representation></AdaptationSet></Period></MPD>
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.mpd"))
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: folder.appendingPathComponent("manifest.mpd").path))))
        let made = try await generator.image(at: .seconds(0.5))
        let log = await generator.statistics.log
        #expect(made.isSyncSample)
        #expect(abs(made.actualTime - 0.48) < 0.001, "\(made.actualTime) s")
        let head = log.dropFirst(2).first
        #expect(head?.start == 0 && head?.end == 16384, "\(log.map { ($0.start, $0.end ?? 0) })")
    }

    /// At 0.95 s the segment playing started with its keyframe at 0.767 s; the next one starts at 1.0 s with a
    /// keyframe (ffprobe lists the stream's I frames at 0.767 and 1.0 s): the nearest is the next segment's. Exact,
    /// the frame on screen at 0.95 s is the 30 fps frame from 0.933 s, decoded from the segment playing.
    @Test func theNearestKeyframeMayStartTheNextSegment() async throws {
        let nearest = try await Self.generator("media3-cmaf-multi-segment/manifest.mpd").image(at: .seconds(0.95))
        #expect(try nearest.position.segment.resource.url.hasSuffix("video_5.m4s"))
        #expect(abs(nearest.actualTime - 1.0) < 0.001)
        var options = ThumbnailOptions()
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        let path = Self.folder.appendingPathComponent("media3-cmaf-multi-segment/manifest.mpd").path
        let exact = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: path))), options: options).image(at: .seconds(0.95))
        #expect(try exact.position.segment.resource.url.hasSuffix("video_4.m4s"))
        #expect(abs(exact.actualTime - 0.9333) < 0.001)
        #expect(!exact.isSyncSample)
    }

    /// A live HLS playlist (Media3's CMAF media playlist without its EXT-X-ENDLIST, written here beside nothing:
    /// its segments are named by absolute paths): the newest keyframe is in its last segment, or, when the playlist
    /// marks that one a gap, in the one before.
    @Test func theNewestKeyframeOfALivePlaylist() async throws {
        let folder = Self.folder.appendingPathComponent("media3-cmaf-multi-segment")
        let ended = try String(contentsOf: folder.appendingPathComponent("stream_1.m3u8"), encoding: .utf8)
        var lines = ended.split(separator: "\n").map(String.init).filter { $0 != "#EXT-X-ENDLIST" && $0 != "#EXT-X-PLAYLIST-TYPE:VOD" }
        lines = lines.map { line in
            if line.hasPrefix("#EXT-X-MAP:URI=\"") { return "#EXT-X-MAP:URI=\"\(folder.path)/video_init.mp4\"" }
            return line.hasPrefix("#") ? line : folder.appendingPathComponent(line).path
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.m3u8")
        try lines.joined(separator: "\n").write(to: live, atomically: true, encoding: .utf8)
        let session = StreamSession(input: FileInput(path: live.path))
        #expect(try await session.loadPresentation().isLive)
        let newest = try await ThumbnailGenerator(media: .stream(session)).image(at: .latest)
        #expect(try newest.position.segment.resource.url.hasSuffix("video_12.m4s"))
        #expect(newest.isSyncSample)

        // The last segment a gap: the one before it.
        let gapped = lines.dropLast(2) + ["#EXT-X-GAP"] + lines.suffix(2)
        try gapped.joined(separator: "\n").write(to: live, atomically: true, encoding: .utf8)
        let before = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: live.path)))).image(at: .latest)
        #expect(try before.position.segment.resource.url.hasSuffix("video_11.m4s"))
    }

    /// A live DASH template without a SegmentTimeline (written here over shaka 7401's 2 s segments): the newest segment
    /// is the one before the one playing at the clock's time since `availabilityStartTime`.
    @Test func theNewestKeyframeOfALiveTemplateFollowsTheClock() async throws {
        let live = try LiveTemplateManifest()
        defer { live.remove() }
        let path = live.path
        let start = try #require(StreamDate(parsing: LiveTemplateManifest.availabilityStart)).sinceEpoch
        // 7 s in: the segment of 6-8 s (number 4) is being made; number 3 (4-6 s) is the newest.
        let session = StreamSession(input: FileInput(path: path), wallClock: { start + .seconds(7) })
        let newest = try await ThumbnailGenerator(media: .stream(session)).image(at: .latest)
        #expect(try newest.position.segment.number == 3)
        #expect(try newest.position.segment.resource.url.hasSuffix("chunk-stream0-00003.m4s"))
        #expect(abs(newest.actualTime - 4) < 0.001)
    }

    /// A DASH SegmentBase Representation's indexRange says where its sidx is and that it indexes the media: the
    /// file is read up to the index's end and no further, its end is never read (ffmpeg's files end in an mfra the
    /// sidx does not reach), and the picture reads the fragment it needs. Media3's file: manifest, 0-905 (the
    /// manifest's Initialization and indexRange), the fragment's head, the rest of its keyframe.
    @Test func aSegmentBaseFileIsReadToItsIndexAndNotAtItsEnd() async throws {
        let manifest = "media3-dash-multi-period-with-offset/sample.mpd"
        let text = try String(contentsOf: Self.folder.appendingPathComponent(manifest), encoding: .utf8)
        let indexRange = try #require(text.firstMatch(of: /indexRange="(\d+)-(\d+)"/))
        let indexEnd = try #require(UInt64(indexRange.output.2)) + 1
        let generator = Self.generator(manifest)
        _ = try await generator.image(at: .seconds(2.5))
        let log = await generator.statistics.log
        #expect(log.allSatisfy { $0.suffixLength == nil || $0.suffixLength == 0 }, "no read of the file's end")
        #expect(log.count >= 2 && log[1].start == 0 && log[1].end == indexEnd, "\(log.map { ($0.start, $0.end) })")
        #expect(log.count <= 4)
    }

    @Test func aStreamFrameNumberIsRefused() async throws {
        await #expect(throws: ThumbnailError.self) {
            try await Self.generator("media3-cmaf-multi-segment/manifest.mpd").image(at: .frame(3))
        }
    }

    /// Media3's emsg stream is H.264 High 4:4:4, which openh264 does not decode: a typed error naming the trait that
    /// decodes it, not a picture; with the trait, the picture of its keyframe at 0.5 s (the codec corpus's 4:4:4 files
    /// check such pictures against ffmpeg's).
    @Test func anUndecodableRenditionGivesTheDecoderError() async throws {
        #if FFmpegDecoders
        let made = try await Self.generator("media3-dash-multi-segment-with-emsg1/manifest.mpd").image(at: .seconds(0.6))
        #expect(made.actualTime == 0.5 && made.image.width == 160 && made.image.height == 90)
        #else
        let error = try await #require(throws: DecodeError.self) {
            try await Self.generator("media3-dash-multi-segment-with-emsg1/manifest.mpd").image(at: .seconds(0.6))
        }
        #expect(error.code == .unsupportedFeature && error.detail.contains("4:4:4") && error.detail.contains("FFmpegDecoders"))
        #endif
    }
}

extension StreamReferences.Reference: CustomTestStringConvertible {
    public var testDescription: String { name }
}
