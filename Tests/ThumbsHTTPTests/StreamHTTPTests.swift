import ByteSources
import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Storyboards
import Testing
import Thumbs

/// Stream thumbnails over HTTP from nginx: what they cost against what the stream's files hold.
@Suite(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
struct StreamHTTPTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")
    static let nginx: Nginx? = try? Nginx(root: folder.path)

    static func size(_ relative: String) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(relative).path)[.size] as? UInt64)
    }

    /// (manifest, time, the playlists and init segment read, in the folder, and whether the segment before the one
    /// read is probed): at most 6 requests and one more for each moof/mdat chunk of the segment after its first (the
    /// locator walks to each moof of a segment without a sidx: livesim2's 8 s segment is four, by the box walk of
    /// Fixtures/streams/make-expectations.py), and no more bytes than those files, the segment and a probe (16 KiB)
    /// of the one before it. At 2.2 s Media3's CMAF manifest plays the segment from 1.93 s, whose keyframe is
    /// farther than the next segment's start at 2.27 s, so both are read.
    static let cases: [(manifest: String, seconds: Double, texts: [String], probesBefore: Bool)] = [
        ("media3-cmaf-multi-segment/playlist.m3u8", 1, ["media3-cmaf-multi-segment/stream_1.m3u8",
                                                        "media3-cmaf-multi-segment/video_init.mp4"], false),
        ("media3-cmaf-multi-segment/manifest.mpd", 2.2, ["media3-cmaf-multi-segment/video_init.mp4"], true),
        ("livesim2-testpic-alt-seg-dur-stl/Manifest.mpd", 6, ["livesim2-testpic-alt-seg-dur-stl/V300/init.mp4"], false),
        ("shaka-7401/dash_2.mpd", 30, ["shaka-7401/init-stream0.m4s"], false),
    ]

    /// The moof/mdat chunks of each segment file of several (Fixtures/streams/expectations.json).
    static let chunks: [String: [[UInt64]]] = {
        struct Expectations: Decodable { var fragments: [String: [[UInt64]]] }
        do {
            let data = try Data(contentsOf: folder.appendingPathComponent("expectations.json"))
            return try JSONDecoder().decode(Expectations.self, from: data).fragments
        } catch {
            fatalError("Fixtures/streams/expectations.json: \(error)")
        }
    }()

    @Test(arguments: cases.indices)
    func aThumbnailReadsThePlaylistsTheInitSegmentAndPartOfOneSegment(_ index: Int) async throws {
        let (manifest, seconds, texts, probesBefore) = Self.cases[index]
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let input = try HTTPInput(url: nginx.url(manifest))
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: input)))
        let made = try await generator.image(at: .seconds(seconds))
        let segmentPath = String(try made.position.segment.resource.url.dropFirst(nginx.url("").count))
        let files = try ([manifest] + texts).map(Self.size).reduce(0, +)
        let segment = try Self.size(segmentPath)
        let moofs = max(0, (Self.chunks[segmentPath]?.count ?? 1) - 1)
        let log = await generator.statistics.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes)" }
        #expect(made.requests <= 6 + moofs, "\(log)")
        #expect(made.bytesFetched <= files + segment + (probesBefore ? 16 * 1024 : 0), "\(log)")
        #expect(made.bytesFetched >= files, "\(log)")
        #expect(made.isSyncSample)
    }
}

/// MPEG-TS stream thumbnails over HTTP from nginx: one request reads the segment from its start and stops once the
/// keyframe's access unit is whole. The least any reader of a TS segment without an index can read is up to the
/// first packet of the next video PES packet (only it says the keyframe has ended), by ffprobe's packet offsets
/// (`transportPackets` in Fixtures/streams/expectations.json); past it, a read gets what the network brings with
/// that packet, at most one receive buffer (64 KiB).
@Suite(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
struct TransportStreamHTTPTests {
    static let folder = StreamHTTPTests.folder

    /// (playlist, time, the playlists read, the segment file, its byte range in the file).
    static let cases: [(playlist: String, seconds: Double, texts: [String], file: String, range: Range<UInt64>?)] = [
        ("shaka-hls-ts-h265/hevc.m3u8", 1, ["shaka-hls-ts-h265/hevc.m3u8", "shaka-hls-ts-h265/index.m3u8"],
         "shaka-hls-ts-h265/0.ts", nil),
        ("media3-hls-cea608/manifest.m3u8", 1, ["media3-hls-cea608/manifest.m3u8", "media3-hls-cea608/sd-hls.m3u8"],
         "media3-hls-cea608/sd-hls0000000000.ts", 0 ..< 284_820),
        ("ffmpeg-hls-ts-hevc-single-file/index.m3u8", 1.3, ["ffmpeg-hls-ts-hevc-single-file/index.m3u8"],
         "ffmpeg-hls-ts-hevc-single-file/index.ts", 44_368 ..< 60_348),
        ("ffmpeg-hls-ts-muxed-aac/index.m3u8", 1, ["ffmpeg-hls-ts-muxed-aac/index.m3u8"], "ffmpeg-hls-ts-muxed-aac/segment2.ts", nil),
    ]

    /// ffprobe's video packets of each TS file: [pts, dts, pos, keyframe].
    static let packets: [String: [[Int64]]] = {
        struct Packet: Decodable {
            var fields: [Int64]
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                fields = [try container.decode(Int64.self), try container.decode(Int64.self), try container.decode(Int64.self),
                          try container.decode(Bool.self) ? 1 : 0]
            }
        }
        struct Expectations: Decodable { var transportPackets: [String: [Packet]] }
        do {
            let data = try Data(contentsOf: folder.appendingPathComponent("expectations.json"))
            return try JSONDecoder().decode(Expectations.self, from: data).transportPackets.mapValues { $0.map(\.fields) }
        } catch {
            fatalError("Fixtures/streams/expectations.json: \(error)")
        }
    }()

    /// Through shaka-packager's I-frame playlist: the master, the I-frame playlist, the program tables at the file's
    /// start (a bounded read up to 1 KiB) and the keyframe's range; exactly those bytes.
    @Test func anIFramePlaylistReadsTheKeyframesRangeAlone() async throws {
        let nginx = try #require(StreamHTTPTests.nginx, "nginx is installed but did not start")
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: try HTTPInput(url: nginx.url("shaka-lcevc-sei-ts/master.m3u8")))))
        let made = try await generator.image(at: .seconds(5.9))
        let range = try #require(try made.position.segment.resource.byteRange)
        #expect(range == 2_022_692 ..< 2_022_692 + 51_324)  // the I-frame at 6.467 s, nearer than the one at 4.467 s
        let texts = try ["shaka-lcevc-sei-ts/master.m3u8", "shaka-lcevc-sei-ts/iframe.m3u8"].map(StreamHTTPTests.size).reduce(0, +)
        let log = await generator.statistics.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes)" }
        #expect(made.requests == 4, "\(log)")
        #expect(made.bytesFetched == texts + 1024 + UInt64(range.count), "\(log)")
        #expect(abs(made.actualTime - 6.4667) < 0.001)
    }

    /// A storyboard through shaka-packager's I-frame playlist: its keyframes are byte ranges of one 3.4 MB file,
    /// read together after the first (whose picture sets the tile size): from an origin known to answer several ranges
    /// at once, one request for all of them; the bytes exactly the playlists, the file's program tables (its first 376
    /// bytes, before the first keyframe) and the ranges of the keyframes shown, by the I-frame playlist's text.
    @Test func aStoryboardReadsAnIFramePlaylistsKeyframesTogether() async throws {
        let nginx = try #require(StreamHTTPTests.nginx, "nginx is installed but did not start")
        var options = StoryboardOptions()
        options.interval = .seconds(1)
        let meter = FetchMeter()
        let storyboard = try await RoundTripTests.withFreshClient { client in
            client.rangeSupport.remember(.multipart, for: nginx.url(""))
            let input = try HTTPInput(url: nginx.url("shaka-lcevc-sei-ts/master.m3u8"), client: client)
            return try await meter.measure { try await StoryboardMaker(media: .stream(StreamSession(input: input)), options: options).make { _, _ in } }
        }
        let iFrames = try String(contentsOf: Self.folder.appendingPathComponent("shaka-lcevc-sei-ts/iframe.m3u8"), encoding: .utf8)
        // Each entry's time (the EXTINF durations before it) and length.
        var entries: [(seconds: Double, length: UInt64)] = []
        var time = 0.0
        for line in iFrames.split(separator: "\n") {
            if line.hasPrefix("#EXTINF:"), let duration = Double(line.dropFirst("#EXTINF:".count).split(separator: ",")[0]) {
                entries.append((time, 0))
                time += duration
            } else if line.hasPrefix("#EXT-X-BYTERANGE:"), let length = UInt64(line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@")[0]),
                      !entries.isEmpty {
                entries[entries.count - 1].length = length
            }
        }
        let shown = Set(storyboard.cues.map(\.keyframeTime.seconds))
        let used = entries.filter { entry in shown.contains { abs($0 - entry.seconds) < 0.01 } }
        #expect(used.count == storyboard.keyframeCount && used.count == shown.count, "\(shown) of \(entries)")
        let keyframeBytes = used.reduce(0) { $0 + $1.length }
        let texts = try ["shaka-lcevc-sei-ts/master.m3u8", "shaka-lcevc-sei-ts/iframe.m3u8"].map(StreamHTTPTests.size).reduce(0, +)
        let fetched = meter.statistics
        let log = fetched.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes)" }
        // The playlists, the tables and the first keyframe, then the other keyframes in one request.
        #expect(fetched.requests == 5, "\(log)")
        #expect(fetched.bytes >= texts + 376 + keyframeBytes, "\(log)")
        // A multipart body adds a part header and a boundary for each range.
        #expect(fetched.bytes <= texts + 376 + keyframeBytes + UInt64(storyboard.keyframeCount) * 200, "\(log)")

        // With the tile size given, the first keyframe is read with the others, and the program tables with it (the
        // first keyframe's range starts where they end: one range): the playlists and one request.
        options.tileHeight = 90
        let sized = FetchMeter()
        _ = try await RoundTripTests.withFreshClient { client in
            client.rangeSupport.remember(.multipart, for: nginx.url(""))
            let input = try HTTPInput(url: nginx.url("shaka-lcevc-sei-ts/master.m3u8"), client: client)
            return try await sized.measure { try await StoryboardMaker(media: .stream(StreamSession(input: input)), options: options).make { _, _ in } }
        }
        let sizedLog = sized.statistics.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes)" }
        #expect(sized.statistics.requests == 3, "\(sizedLog)")
        #expect(sized.statistics.bytes >= texts + 376 + keyframeBytes, "\(sizedLog)")
        #expect(sized.statistics.bytes <= texts + 376 + keyframeBytes + UInt64(storyboard.keyframeCount) * 200, "\(sizedLog)")
    }

    @Test(arguments: cases.indices)
    func aThumbnailReadsTheSegmentUntilItsKeyframeIsWhole(_ index: Int) async throws {
        let (playlist, seconds, texts, file, range) = Self.cases[index]
        let nginx = try #require(StreamHTTPTests.nginx, "nginx is installed but did not start")
        let generator = ThumbnailGenerator(media: .stream(StreamSession(input: try HTTPInput(url: nginx.url(playlist)))))
        let made = try await generator.image(at: .seconds(seconds))
        #expect(try made.position.segment.resource.url.hasSuffix(file))
        let segment = try range ?? 0 ..< StreamHTTPTests.size(file)
        // The first keyframe in the segment, and the next video packet after it.
        let inSegment = try #require(Self.packets[file]).filter { segment.contains(UInt64($0[2])) }
        let keyframe = try #require(inSegment.firstIndex { $0[3] == 1 })
        let next = try #require(inSegment.dropFirst(keyframe + 1).first, "a packet after the keyframe")
        let least = UInt64(next[2]) + 188 - segment.lowerBound
        let textBytes = try texts.map(StreamHTTPTests.size).reduce(0, +)
        let read = made.bytesFetched - textBytes
        let log = await generator.statistics.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes)" }
        #expect(made.requests == texts.count + 1, "\(log)")
        #expect(read >= least, "\(log)")
        #expect(read <= min(UInt64(segment.count), least + 64 * 1024), "\(log)")
        #expect(made.isSyncSample)
    }

}

/// A TS segment from an origin that sends every range it is asked for whole, at once (an object store on a fast
/// link): what it sends for one thumbnail stays within 1.5 times the playlists and the keyframe, plus 64 KiB.
@Suite struct TransportSegmentBoundTests {
    /// The positions of the video packets of a TS file (ffprobe's, Fixtures/streams/expectations.json).
    static func videoPacketPositions(_ file: String) throws -> [UInt64] {
        // Each packet is [pts, dts, position, key].
        let data = try Data(contentsOf: StreamHTTPTests.folder.appendingPathComponent("expectations.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let packets = try #require((root["transportPackets"] as? [String: Any])?[file] as? [[Any]])
        return try packets.map { try #require(($0[2] as? NSNumber)?.uint64Value) }
    }

    /// shaka-packager's 12 s HEVC segment (997 KB, AVERAGE-BANDWIDTH 829,339): the keyframe that starts it ends
    /// where the next video packet starts (ffprobe). The segment was read open-ended, and such an origin sent it all.
    @Test func anObjectStoreSendsLittleMoreThanTheKeyframe() async throws {
        let folder = StreamHTTPTests.folder.appendingPathComponent("shaka-hls-ts-h265")
        var files: [String: [UInt8]] = [:]
        for name in ["hevc.m3u8", "index.m3u8", "0.ts"] {
            files["/" + name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        var faults = TestHTTPServer.Faults()
        faults.multipleRanges = .whole
        let server = try await TestHTTPServer(files: files, faults: faults)
        defer { Task { try? await server.shutdown() } }
        let made = try await ThumbnailGenerator(media: .stream(StreamSession(input: try HTTPInput(url: server.url("/hevc.m3u8"))))).image()
        #expect(made.isSyncSample)
        #expect(try made.position.segment.resource.url.hasSuffix("/0.ts"))
        let positions = try Self.videoPacketPositions("shaka-hls-ts-h265/0.ts")
        let keyframeEnd = positions[1] + 188  // up to the packet that starts the next picture
        let playlists = UInt64(files["/hevc.m3u8", default: []].count + files["/index.m3u8", default: []].count)
        let bound = 3 * (playlists + keyframeEnd) / 2 + 64 * 1024
        let sent = UInt64(server.bodyBytes)
        #expect(sent <= bound, "the origin sent \(sent) bytes, the bound is \(bound): \(server.requests.map { $0.range ?? "-" })")
    }
}
