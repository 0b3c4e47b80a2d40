import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `thumbs storyboard` run as a process: the files it writes, its stats line, its exit codes.
@Suite struct StoryboardCommandTests {
    struct Manifest: Decodable {
        struct Cue: Decodable {
            var startMs: Int
            var endMs: Int
            var file: String
            var x: Int?
            var y: Int?
            var w: Int?
            var h: Int?
        }
        var durationMs: Int
        var intervalMs: Int
        var tileWidth: Int
        var tileHeight: Int
        var columns: Int
        var rows: Int
        var tileCount: Int
        var sheetCount: Int
        var sheetTemplate: String
        var singleImages: Bool
        var cues: [Cue]
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-storyboard-\(UUID().uuidString)")
    }

    /// The cue lines of a WebVTT file: (start ms, end ms, reference), checked against the timestamp syntax.
    static func cues(_ text: String) throws -> [(Int, Int, String)] {
        let timing = /^(\d{2,}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2,}):(\d{2}):(\d{2})\.(\d{3})$/
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "WEBVTT")
        var result: [(Int, Int, String)] = []
        for (index, line) in lines.enumerated() where line.contains("-->") {
            let match = try #require(try timing.wholeMatch(in: line), "line \(index + 1): \(line)")
            let start = ((Int(match.1)! * 60 + Int(match.2)!) * 60 + Int(match.3)!) * 1000 + Int(match.4)!
            let end = ((Int(match.5)! * 60 + Int(match.6)!) * 60 + Int(match.7)!) * 1000 + Int(match.8)!
            result.append((start, end, lines[index + 1]))
        }
        return result
    }

    @Test func writesSheetsTrackAndManifest() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await InfoCommandTests.run(["storyboard", Fixtures.path("h264-bframes"), "--interval", "0.5", "--columns", "3",
                                               "--rows", "1", "-o", directory.path, "--stats"])
        #expect(output.status == 0, "\(output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["storyboard-1.jpg", "storyboard-2.jpg", "storyboard.json", "storyboard.vtt"])
        #expect(!output.stderr.contains("\r"), "no progress line when standard error is not a terminal")

        // 320x240 (ffprobe) at 160 wide: 160x120 tiles; 3 s in 0.5 s cues: 6 cues, 3 to a sheet.
        let expectation = try Fixtures.expectation("h264-bframes")
        let tileHeight = 160 * (expectation.height ?? 0) / (expectation.width ?? 1)
        let text = try String(contentsOf: directory.appendingPathComponent("storyboard.vtt"), encoding: .utf8)
        let cues = try Self.cues(text)
        #expect(cues.map(\.0) == [0, 500, 1000, 1500, 2000, 2500])
        #expect(cues.map(\.1) == [500, 1000, 1500, 2000, 2500, 3000])
        #expect(cues.map(\.2) == (0..<6).map { "storyboard-\($0 / 3 + 1).jpg#xywh=\($0 % 3 * 160),0,160,\(tileHeight)" })

        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: directory.appendingPathComponent("storyboard.json")))
        #expect(manifest.tileCount == 6 && manifest.sheetCount == 2 && manifest.columns == 3 && manifest.rows == 1)
        #expect(manifest.tileWidth == 160 && manifest.tileHeight == tileHeight && manifest.intervalMs == 500)
        #expect(manifest.durationMs == 3000 && manifest.sheetTemplate == "storyboard-$index$.jpg" && !manifest.singleImages)
        #expect(manifest.cues.map { "\($0.file)#xywh=\($0.x ?? -1),\($0.y ?? -1),\($0.w ?? -1),\($0.h ?? -1)" } == cues.map(\.2))

        let last = try #require(output.stderr.split(separator: "\n").last)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(stats["cues"] as? Int == 6 && stats["sheets"] as? Int == 2)
        #expect(stats["keyframes"] as? Int == 6)
        #expect(output.stdout.split(separator: "\n").count == 1)
    }

    @Test func manifestsChooseTheTracksWritten() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await InfoCommandTests.run(["storyboard", Fixtures.path("h264-bframes"), "--interval", "0.5", "--columns", "3",
                                               "--rows", "1", "--manifests", "hls,dash,bif", "-o", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["storyboard-1.jpg", "storyboard-2.jpg", "storyboard.bif", "storyboard.m3u8", "storyboard.mpd"])
        let bif = try Data(contentsOf: directory.appendingPathComponent("storyboard.bif"))
        #expect(bif.starts(with: [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]) && bif[12] == 6)  // six cues
        let playlist = try String(contentsOf: directory.appendingPathComponent("storyboard.m3u8"), encoding: .utf8)
        // 160x120 tiles, 3 to a sheet, 0.5 s each: two segments of 1.5 s.
        #expect(playlist.components(separatedBy: "#EXT-X-TILES:RESOLUTION=160x120,LAYOUT=3x1,DURATION=0.500\n#EXTINF:1.500,\n").count == 3)
        let mpd = try String(contentsOf: directory.appendingPathComponent("storyboard.mpd"), encoding: .utf8)
        #expect(mpd.contains("value=\"3x1\"") && mpd.contains("media=\"storyboard-$Number$.jpg\""))

        let refused = try await InfoCommandTests.run(["storyboard", Fixtures.path("h264-bframes"), "--manifests", "vtt,bmp",
                                                "-o", directory.path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--manifests takes"), "\(refused.stderr)")
    }

    @Test func singleImagesWriteOneImagePerCue() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await InfoCommandTests.run(["storyboard", Fixtures.path("rotate-90"), "--interval", "1", "--single-images",
                                               "--format", "png", "--tile", "90x160", "-o", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOf: directory.appendingPathComponent("storyboard.vtt"), encoding: .utf8)
        let cues = try Self.cues(text)
        #expect(cues.map(\.2) == ["storyboard-1.png", "storyboard-2.png"])
        for cue in cues {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(cue.2))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        #expect(output.stderr.isEmpty)
    }

    @Test func overHTTPTheStatsCountWhatTheServerSent() async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-faststart")])
        defer { Task { try? await server.shutdown() } }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await InfoCommandTests.run(["storyboard", server.url("/a.mp4"), "--interval", "1", "-o", directory.path, "--stats"])
        #expect(output.status == 0, "\(output.stderr)")
        let last = try #require(output.stderr.split(separator: "\n").last)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(stats["bytes"] as? Int == server.bodyBytes)
        #expect(stats["requests"] as? Int == server.requests.count)
    }

    static let badOptions: [[String]] = [
        ["--tile", "160"],
        ["--tile", "160x90", "--width", "100"],
        ["--interval", "0"],
        ["--interval", "inf"],
        ["--interval", "1e300"],
        ["--interval", "nan"],
        ["--format", "gif"],
        ["--quality", "0"],
        ["--template", "sheet.jpg"],
    ]

    @Test(arguments: badOptions)
    func badOptionsExitWithUsage(_ arguments: [String]) async throws {
        let output = try await InfoCommandTests.run(["storyboard", Fixtures.path("h264-bframes"), "-o", "/tmp/unused"] + arguments)
        #expect(output.status == 64, "\(arguments): \(output.stderr)")
    }

    @Test func audioOnlyIsBadInputAndMissingFileIsAnIOError() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let audio = try await InfoCommandTests.run(["storyboard", Fixtures.path("audio-only"), "-o", directory.path])
        #expect(audio.status == 65)
        #expect(audio.stderr.contains("no video"))
        let missing = try await InfoCommandTests.run(["storyboard", "/nonexistent/x.mp4", "-o", directory.path])
        #expect(missing.status == 74)
    }

    /// An HLS playlist (by its name) and a DASH manifest without an extension (by its content) give storyboards of
    /// their streams. FFmpeg's HLS cut of h264-bframes holds one GOP a segment, so its cues and tiles are the
    /// movie's: 3 s in 0.5 s cues, 160x120 tiles (320x240, ffprobe) three to a sheet.
    @Test func streamsGiveStoryboards() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stream = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/ffmpeg-hls-ts-h264-bframes/index.m3u8")
        let output = try await InfoCommandTests.run(["storyboard", stream.path, "--interval", "0.5", "--columns", "3", "--rows", "1",
                                                     "-o", directory.path, "--stats"])
        #expect(output.status == 0, "\(output.stderr)")
        let expectation = try Fixtures.expectation("h264-bframes")
        let tileHeight = 160 * (expectation.height ?? 0) / (expectation.width ?? 1)
        let cues = try Self.cues(try String(contentsOf: directory.appendingPathComponent("storyboard.vtt"), encoding: .utf8))
        #expect(cues.map(\.0) == [0, 500, 1000, 1500, 2000, 2500])
        #expect(cues.map(\.2) == (0..<6).map { "storyboard-\($0 / 3 + 1).jpg#xywh=\($0 % 3 * 160),0,160,\(tileHeight)" })
        let last = try #require(output.stderr.split(separator: "\n").last)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(stats["cues"] as? Int == 6 && stats["sheets"] as? Int == 2)
        // The movie's keyframes (ffprobe) nearest the cues, which start the segments.
        let keys = Set(cues.compactMap { cue in StoryboardTimes.nearestKey(toMilliseconds: cue.0, in: expectation) })
        #expect(stats["keyframes"] as? Int == keys.count)

        let copy = URL(fileURLWithPath: Self.temporaryDirectory().path)
        try FileManager.default.copyItem(at: Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/media3-cmaf-multi-segment"),
                                         to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.moveItem(at: copy.appendingPathComponent("manifest.mpd"), to: copy.appendingPathComponent("manifest"))
        let dash = try await InfoCommandTests.run(["storyboard", copy.appendingPathComponent("manifest").path, "--interval", "1",
                                                   "-o", directory.path])
        #expect(dash.status == 0, "\(dash.stderr)")
        // 3 s (ffprobe) in 1 s cues, 640x360 at 160 wide.
        let dashCues = try Self.cues(try String(contentsOf: directory.appendingPathComponent("storyboard.vtt"), encoding: .utf8))
        #expect(dashCues.map(\.0) == [0, 1000, 2000] && dashCues.last?.1 == 3000)
        #expect(dashCues.allSatisfy { $0.2.hasSuffix(",160,90") })
    }
}

/// Key packets of a fixture by ffprobe, for cue oracles.
enum StoryboardTimes {
    /// The pts of the key packet nearest `milliseconds` (the earlier on a tie).
    static func nearestKey(toMilliseconds milliseconds: Int, in expectation: FixtureExpectation) -> Int64? {
        let timescale = Int64(expectation.timescale ?? 1000)
        let keys = expectation.packets.filter(\.key).map(\.pts).sorted()
        return keys.min { lhs, rhs in
            let left = abs(lhs * 1000 - Int64(milliseconds) * timescale)
            let right = abs(rhs * 1000 - Int64(milliseconds) * timescale)
            return left == right ? lhs < rhs : left < right
        }
    }
}
