import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `thumbs info` run as a process: its JSON against ffprobe's expectations, and its exit codes.
@Suite struct InfoCommandTests {
    struct Output {
        var status: Int32
        /// Standard output as bytes (an image written to `-o -`).
        var stdoutBytes: Data
        var stderr: String
        /// Standard output as text.
        var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    }

    /// The `thumbs` binary built with these tests (the test target depends on it), beside the test bundle: never an
    /// older build from somewhere else.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("thumbs")
    }

    /// Runs the binary with `arguments`, its environment this process's with `environment` added. The wait runs on
    /// a thread of its own: a blocked wait on Swift's cooperative threads (two on two cores) once starved the HTTP
    /// tests running beside it until their clients' read timeouts fired.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runWaiting(arguments, environment: environment) })
            }.start()
        }
    }

    private static func runWaiting(_ arguments: [String], environment: [String: String]) throws -> Output {
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let run = try CapturedRun.waiting(binary, arguments, environment: merged)
        return Output(status: run.status, stdoutBytes: run.stdout, stderr: String(decoding: run.stderr, as: UTF8.self))
    }

    struct Info: Decodable {
        struct Track: Decodable {
            var id: Int
            var kind: String
            var codec: String?
            var codecName: String?
            var sampleEntry: String?
            var encrypted: Bool
            var codedWidth: Int?
            var codedHeight: Int?
            var displayWidth: Int?
            var displayHeight: Int?
            var rotation: Int?
            var mirrored: Bool?
            var duration: Double
            var sampleCount: Int
            var syncSampleCount: Int
        }
        var fragmented: Bool
        var moovOffset: Int
        var bytesRead: Int
        var reads: Int
        var tracks: [Track]
    }

    @Test(arguments: Fixtures.names)
    func jsonMatchesFFprobe(_ name: String) async throws {
        let output = try await Self.run(["info", Fixtures.path(name), "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let info = try JSONDecoder().decode(Info.self, from: Data(output.stdout.utf8))
        let expected = try Fixtures.expectation(name)
        #expect(info.bytesRead > 0 && info.reads > 0)
        #expect(info.fragmented == (name == "fragmented"))
        guard expected.codecName != nil else {
            #expect(!info.tracks.contains { $0.kind == "video" })
            return
        }
        let video = try #require(info.tracks.first { $0.kind == "video" })
        #expect(video.sampleCount == expected.packets.count)
        #expect(video.syncSampleCount == expected.packets.filter(\.key).count)
        // The SPS's (AV1: the sequence header's) as ffmpeg's bitstream parser reads it; VP9 has none out of band, and
        // ffprobe's coded size is its key frames'.
        #expect(video.codedWidth == expected.sps?.codedWidth ?? expected.codedWidth)
        #expect(video.codedHeight == expected.sps?.codedHeight ?? expected.codedHeight)
        #expect(!video.encrypted)
        #expect(abs(video.duration - (expected.duration ?? -1)) < 0.0005)
        // Display size: cropped, the width times the sample aspect ratio (the tkhd width ffmpeg writes, to the nearest
        // pixel), turned by the matrix.
        var width = Double(expected.width ?? 0)
        var height = Double(expected.height ?? 0)
        if let sar = expected.sampleAspectRatio?.split(separator: ":").compactMap({ Double($0) }), sar.count == 2, sar[1] > 0 {
            width = (width * sar[0] / sar[1]).rounded(.toNearestOrAwayFromZero)
        }
        let (a, _, _, _) = expected.matrixLinearPart
        if a == 0 { swap(&width, &height) }
        #expect(video.displayWidth == Int(width))
        #expect(video.displayHeight == Int(height))
        #expect(video.mirrored == (expected.matrixLinearPart == (-1, 0, 0, 1) || expected.matrixLinearPart == (1, 0, 0, -1)))
    }

    @Test func textOutputNamesTheTracks() async throws {
        let output = try await Self.run(["info", Fixtures.path("rotate-90")])
        #expect(output.status == 0)
        #expect(output.stdout.contains("track 1 video avc1"))
        #expect(output.stdout.contains("display 180x320"))
        #expect(output.stdout.contains("rotated 90"))
    }

    /// A QuickTime sound description (version 2: the sample rate a 64-bit float) with `rate`, and no children.
    static func soundDescriptionVersion2(rate: Double) -> [UInt8] {
        BoxBuilder.box("mp4a", BoxBuilder.zeros(6) + BoxBuilder.u16(1)       // reserved, data_reference_index
            + BoxBuilder.u16(2) + BoxBuilder.zeros(6)                        // version 2, revision, vendor
            + BoxBuilder.u16(3) + BoxBuilder.u16(16) + BoxBuilder.u16(0xFFFE) + BoxBuilder.u16(0)  // always 3, 16, -2, 0
            + BoxBuilder.u32(0x0001_0000)                                    // always 65536
            + BoxBuilder.u32(72) + BoxBuilder.u64(rate.bitPattern)           // size of struct, the rate
            + BoxBuilder.u32(2) + BoxBuilder.u32(0x7F00_0000)                // channels, always 0x7F000000
            + BoxBuilder.u32(16) + BoxBuilder.zeros(12))                     // bits, flags, bytes and frames per packet
    }

    /// `bytes` in a new file in the temporary directory.
    static func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        let path = ThumbnailCommandTests.temporaryPath("info-\(name).mov")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A sample rate that is not a number, is infinite or is far past any integer (a version 2 sound description
    /// stores it as a float) is no reason to stop: the text leaves out what is not a number and prints the rest as it
    /// is; JSON leaves out what it cannot hold.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300])
    func sampleRatesNoIntegerHoldsArePrintedAsTheyAre(_ rate: Double) async throws {
        var movie = SyntheticMovie(sampleEntry: Self.soundDescriptionVersion2(rate: rate))
        movie.handlerType = "soun"
        let path = try Self.temporaryFile(movie.bytes(), name: "rate")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try await Self.run(["info", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("track 1 audio mp4a"), "\(text.stdout)")
        #expect(text.stdout.contains(rate.isFinite ? ", 2 ch, 1e+300 Hz" : ", 2 ch,") == rate.isFinite, "\(text.stdout)")
        let json = try await Self.run(["info", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any]
        let track = (object?["tracks"] as? [[String: Any]])?.first
        #expect(track?["channelCount"] as? Int == 2)
        #expect(track?["sampleRate"] as? Double == (rate.isFinite ? rate : nil))
    }

    /// An edit 2^62 units long, both timescales one unit a second: seconds far past any count of milliseconds.
    @Test func aDurationPastEveryIntegerIsPrintedAsItIs() async throws {
        var movie = SyntheticMovie()
        movie.movieTimescale = 1
        movie.timescale = 1
        movie.editListVersion1 = true
        movie.edits = [(1 << 62, 0, 0x10000)]
        let path = try Self.temporaryFile(movie.bytes(), name: "duration")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try await Self.run(["info", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("track 1 video avc1"), "\(output.stdout)")
        #expect(output.stdout.contains("e+18 s, 8 samples (2 sync)"), "\(output.stdout)")
    }

    @Test func missingFileExitsWithAnIOError() async throws {
        let output = try await Self.run(["info", "/nonexistent/file.mp4"])
        #expect(output.status == 74)
        #expect(output.stderr.contains("cannot open"))
        #expect(!output.stderr.contains("Fatal error"))
    }

    @Test func notAMovieExitsWithBadInput() async throws {
        let path = Fixtures.directory.appendingPathComponent("README.md").path
        let output = try await Self.run(["info", path])
        #expect(output.status == 65)
        #expect(output.stderr.split(separator: "\n").count == 1)
        // One sentence: the file once, where, and that it is not a movie (not "needs more bytes").
        #expect(output.stderr.hasPrefix("thumbs: \(path), offset 0: not an MP4 or QuickTime file: its first box, '"))
        #expect(output.stderr.components(separatedBy: path).count == 2)
    }

    /// An HLS master (by its name) and a DASH manifest without an extension (by its content) are summarised: their
    /// periods and renditions, each with the segments its media playlist lists, against the playlists' own lines
    /// (counted here) and ffprobe's duration; what was read is the playlists, one read each.
    @Test func streamsAreSummarised() async throws {
        struct Summary: Decodable {
            struct Period: Decodable {
                struct Rendition: Decodable {
                    var kind: String
                    var width: Int?
                    var height: Int?
                    var segmentCount: Int?
                    var segmentFormat: String?
                    var iFrameOnly: Bool
                    var end: Double?
                }
                var start: Double
                var renditions: [Rendition]
            }
            var format: String
            var live: Bool
            var duration: Double?
            var periods: [Period]
            var reads: Int
        }
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams")
        let cmaf = folder.appendingPathComponent("media3-cmaf-multi-segment")
        let hls = try await Self.run(["info", cmaf.appendingPathComponent("playlist.m3u8").path, "--json"])
        #expect(hls.status == 0, "\(hls.stderr)")
        let read = try JSONDecoder().decode(Summary.self, from: hls.stdoutBytes)
        let mediaPlaylists = try FileManager.default.contentsOfDirectory(atPath: cmaf.path).filter { $0.hasPrefix("stream_") }
        let listed = try mediaPlaylists.map { name in
            try String(contentsOf: cmaf.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "#EXTINF").count - 1
        }
        #expect(read.format == "hls" && !read.live && read.periods.count == 1)
        #expect(read.periods[0].renditions.count == mediaPlaylists.count)
        #expect(read.periods[0].renditions.map(\.segmentCount).compactMap { $0 }.sorted() == listed.sorted())
        #expect(read.periods[0].renditions.allSatisfy { $0.segmentFormat == "mp4" })
        #expect(abs((read.duration ?? 0) - 3) < 0.001, "ffprobe: 3.000 s")
        #expect(read.reads == 1 + mediaPlaylists.count)

        // TS segments and an I-frame playlist.
        let iFrames = try await Self.run(["info", folder.appendingPathComponent("ffmpeg-hls-ts-iframes/master.m3u8").path, "--json"])
        #expect(iFrames.status == 0, "\(iFrames.stderr)")
        let ts = try JSONDecoder().decode(Summary.self, from: iFrames.stdoutBytes).periods[0].renditions
        #expect(ts.map(\.iFrameOnly) == [false, true] && ts.allSatisfy { $0.segmentFormat == "mpeg-ts" })

        // Shaka 7401's live snapshot: three periods from 1000 s, in text.
        let copy = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("thumbs-info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("shaka-7401/dash_1.mpd"), to: copy.appendingPathComponent("live"))
        let live = try await Self.run(["info", copy.appendingPathComponent("live").path])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.hasPrefix("stream: DASH, live, 3 periods\n"))
        #expect(live.stdout.contains("period 0 from 1000.000 s, 14.000 s"))
    }

    static let nginx: Nginx? = try? Nginx(root: Fixtures.directory.path)

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"), arguments: Fixtures.names)
    func infoOverNginxEqualsInfoOfTheFile(_ name: String) async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let local = try await Self.run(["info", Fixtures.path(name), "--json"])
        let remote = try await Self.run(["info", nginx.url(Fixtures.fileName(name)), "--json"])
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout == local.stdout)
    }

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
    func statsAreOneJSONObjectOnTheLastLineOfStandardError() async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let output = try await Self.run(["info", nginx.url("h264-bframes.mp4"), "--stats"])
        #expect(output.status == 0)
        let last = try #require(output.stderr.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        // The whole 84 KB fixture is in the first read: a first contact with nginx asks for the 80 KiB ends as two
        // ranges side by side (the length not known before), one round trip.
        #expect(object["requests"] as? Int == 2)
        #expect(object["roundTrips"] as? Int == 1)
        #expect(object["bytes"] as? Int == 2 * 81_920)
        #expect((object["perRequest"] as? [Any])?.count == 2)
    }

    @Test func unreachableURLExitsWithAnIOError() async throws {
        let output = try await Self.run(["info", "http://127.0.0.1:9/none.mp4"])
        #expect(output.status == 74)
        #expect(output.stderr.contains("127.0.0.1:9"))
    }

    @Test func missingArgumentExitsWithUsage() async throws {
        let output = try await Self.run(["info"])
        #expect(output.status == 64)
    }
}
