import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs

/// `thumbs thumbnail` run as a process: the README's first command, standard output, and the arguments it refuses.
@Suite struct ThumbnailCommandTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    /// PNG's IHDR width and height.
    static func pngSize(_ bytes: Data) -> [Int]? {
        let png = [UInt8](bytes)
        guard png.count > 24, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return [png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) }]
    }

    @Test func theReadmeCommandWritesAnUprightThumbnailAndStandardOutputGetsTheSameBytes() async throws {
        let path = Self.temporaryPath("thumbnail.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "-o", path])
        #expect(written.status == 0, "\(written.stderr)")
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        // ffprobe's size with its 90° rotation: the upright picture is the stored one turned on its side.
        let expectation = try Fixtures.expectation("rotate-90")
        #expect(abs(expectation.rotation ?? 0) == 90)
        let upright = try [#require(expectation.height), #require(expectation.width)]
        let scale = min(1, 320 / Double(upright.max() ?? 1))
        #expect(Self.pngSize(file) == upright.map { Int((Double($0) * scale).rounded()) })

        let piped = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "-o", "-"])
        #expect(piped.status == 0)
        #expect(piped.stdoutBytes == file)
        let jpeg = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--format", "jpeg", "-o", "-"])
        #expect([UInt8](jpeg.stdoutBytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
    }

    /// A frame's start printed with six decimals, cut (as `--time 0.033366` for 1001/30000 s) or rounded, asks for
    /// that frame: the frame starts a fraction of a microsecond later. Starts from ffprobe's packet list of the 29.97
    /// fps fixture.
    @Test(arguments: [1, 2, 3, 31, 59])
    func sixDecimalTimesGiveTheFrameThatStartsThere(_ frame: Int) async throws {
        let expected = try Fixtures.expectation("pasp-narrow")
        let starts = expected.packets.map(\.pts).sorted()
        let seconds = Double(starts[frame]) / 30000
        let path = Self.temporaryPath("frame-\(frame).png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for text in [String(format: "%.6f", (seconds * 1e6).rounded(.down) / 1e6), String(format: "%.6f", seconds)] {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("pasp-narrow"), "--time", text, "--exact",
                                                         "-o", path, "--stats"])
            #expect(output.status == 0, "\(output.stderr)")
            let stats = try #require(output.stderr.split(separator: "\n").last)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
            let actual = try #require(json["actualTime"] as? Double)
            #expect(abs(actual - seconds) < 1e-9, "--time \(text): frame at \(actual), not \(seconds)")
        }
    }

    @Test(arguments: [["--time", "-5"], ["--time=-5"]])
    func aNegativeTimeIsRefusedClearly(_ time: [String]) async throws {
        let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "-o", Self.temporaryPath("x.png")] + time)
        #expect(output.status == 64)
        #expect(output.stderr.contains("--time must be a non-negative number of seconds"), "\(output.stderr)")
    }

    /// A header is 'Name: value' with a name HTTP allows (RFC 9110's token): others are refused before any work.
    @Test(arguments: ["no colon here", "Bad Name: x", ": empty name", "X-Tag\u{7F}: x"])
    func aHeaderThatIsNotAFieldIsRefused(_ header: String) async throws {
        let output = try await InfoCommandTests.run(["thumbnail", "http://127.0.0.1:9/a.mp4", "--header", header,
                                                     "-o", Self.temporaryPath("x.png")])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--header takes 'Name: value' with a valid field name"), "\(output.stderr)")
    }

    /// `--best --stats`: the keyframe of the stretches fixture's sharp stretch (6-8 s by how it was made), and every
    /// candidate with its time and score in the stats line, the chosen one marked; the black stretch's refused as
    /// near-black. `--best` with another time is refused.
    @Test func bestPicksTheSharpStretchAndStatsListTheCandidates() async throws {
        let path = Self.temporaryPath("best.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("best-frame-stretches"), "--best",
                                                     "--candidates", "7", "--max-size", "160", "-o", path, "--stats"])
        #expect(output.status == 0, "\(output.stderr)")
        let stats = try #require(output.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        let actual = try #require(json["actualTime"] as? Double)
        #expect((6.0..<8.0).contains(actual), "\(actual) s")
        let candidates = try #require(json["candidates"] as? [[String: Any]])
        #expect(candidates.count == 7)
        #expect(candidates.filter { $0["chosen"] as? Bool == true }.map { $0["time"] as? Double } == [actual])
        #expect(candidates.allSatisfy { $0["score"] is Double && $0["terms"] is [String: Double] })
        let black = try #require(candidates.first)
        #expect((black["time"] as? Double ?? 99) < 2 && black["rejection"] as? String == "nearBlack")
        #expect(Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: path))) == [160, 90])
        let both = try await InfoCommandTests.run(["thumbnail", Fixtures.path("best-frame-stretches"), "--best", "--time", "1",
                                                   "-o", path])
        #expect(both.status == 64)
        for refused in [["--best", "--exact"], ["--best", "--skip-dark"], ["--best", "--tolerance-after", "1"], ["--candidates", "3"],
                        ["--best", "--candidates", "0"], ["--best", "--candidates", "101"]] {
            let answer = try await InfoCommandTests.run(["thumbnail", Fixtures.path("best-frame-stretches")] + refused + ["-o", path])
            #expect(answer.status == 64, "\(refused)")
        }
    }

    /// `-o x.webp` writes WebP (lossy, or with --lossless the PNG's very pixels), read back by libwebp's decoder and
    /// compared with the PNG the same command writes.
    @Test func webPOutputMatchesThePNGPath() async throws {
        let png = Self.temporaryPath("x.png"), lossy = Self.temporaryPath("x.webp"), lossless = Self.temporaryPath("y.webp")
        for (path, extra) in [(png, [String]()), (lossy, ["--quality", "80"]), (lossless, ["--lossless"])] {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "-o", path] + extra)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let reference = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
        let exact = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: lossless))))
        #expect(exact == reference)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: lossy)))
        #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        let picture = try ImageDecoder().decode(bytes)
        #expect(picture.width == reference.width && picture.height == reference.height)
        #expect(psnr(picture.pixels, reference.pixels) >= 30, "\(psnr(picture.pixels, reference.pixels)) dB")
        let refused = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--lossless", "-o", png])
        #expect(refused.status == 64 && refused.stderr.contains("--lossless is for WebP and AVIF output"), "\(refused.stderr)")
    }

    /// `-o x.avif` writes AVIF (an ISO-BMFF file of brand avif): at the AVIF default quality, the same file as
    /// `--quality 72`, another with `--quality 40`; `--lossless` is taken; `--keep-hdr` of the PQ fixture is 10-bit
    /// with the movie's colours (avifdec, where installed, says so).
    @Test func avifOutputTakesItsQualityAndKeepsHDR() async throws {
        let paths = ["d.avif", "q72.avif", "q40.avif", "l.avif", "hdr.avif"].map { Self.temporaryPath($0) }
        defer { for file in paths { try? FileManager.default.removeItem(atPath: file) } }
        let runs: [(String, [String])] = [("rotate-90", []), ("rotate-90", ["--quality", "72"]), ("rotate-90", ["--quality", "40"]),
                                          ("rotate-90", ["--lossless"]), ("hevc-pq", ["--keep-hdr"])]
        for ((fixture, extra), path) in zip(runs, paths) {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path(fixture), "--max-size", "160", "-o", path] + extra)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let files = try paths.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        for file in files { #expect(Array(file[4..<12]) == Array("ftypavif".utf8)) }
        #expect(files[0] == files[1])
        #expect(files[2].count < files[1].count && files[3].count > files[1].count)
        let avifdec = ExternalTool("/usr/bin/avifdec")
        if avifdec.isInstalled {
            let info = try avifdec.run(["--info", paths[4]]).output
            for line in ["Bit Depth      : 10", "Color Primaries: 9", "Transfer Char. : 16", "Matrix Coeffs. : 9"] {
                #expect(info.contains(line), "\(info)")
            }
        }
    }

    /// `--crop smart` and `--focus X,Y` choose what `--fit fill` keeps: a square of h264-faststart's 4:3 picture
    /// focused on its left edge differs from the centre's; without `--fit fill`, both together, or a focus outside
    /// 0...1, the command refuses (64).
    @Test func cropAndFocusChooseWhatFillKeeps() async throws {
        let paths = ["centre.png", "left.png", "smart.png"].map { Self.temporaryPath($0) }
        defer { for file in paths { try? FileManager.default.removeItem(atPath: file) } }
        for (path, extra) in zip(paths, [[String](), ["--focus", "0,0.5"], ["--crop", "smart"]]) {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("h264-faststart"), "--max-size", "120", "--fit", "fill",
                                                         "-o", path] + extra)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let pictures = try paths.map { try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        #expect(pictures.allSatisfy { $0.width == 120 && $0.height == 120 })
        #expect(pictures[0] != pictures[1])
        for refused in [["--crop", "smart"], ["--focus", "0.2,0.5"], ["--fit", "fill", "--crop", "smart", "--focus", "0,0"],
                        ["--fit", "fill", "--focus", "1.5,0"], ["--fit", "fill", "--crop", "left"]] {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("h264-faststart"), "-o", paths[0]] + refused)
            #expect(output.status == 64, "\(refused): \(output.stderr)")
        }
    }

    /// `--format webp` writes WebP whatever the output's name, and that file is the one `-o x.webp` writes.
    @Test func formatWebPOverridesTheFileName() async throws {
        let named = Self.temporaryPath("x.webp"), forced = Self.temporaryPath("x.out")
        defer { for file in [named, forced] { try? FileManager.default.removeItem(atPath: file) } }
        for (path, extra) in [(named, [String]()), (forced, ["--format", "webp"])] {
            let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("hevc-8bit"), "--max-size", "160", "-o", path] + extra)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: forced)))
        #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: named))))
    }

    /// `--placeholder` alone prints only the ThumbHash; with -o and --stats, the image is written and the same hash is
    /// printed and in the stats line, the hash of the very image written.
    @Test func placeholderIsPrintedAloneOrBesideTheImage() async throws {
        let alone = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "--placeholder"])
        #expect(alone.status == 0, "\(alone.stderr)")
        let printed = alone.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let hash = try ThumbHash(base64: printed)
        #expect(hash.approximateAspectRatio < 1, "the upright picture is portrait")

        let path = Self.temporaryPath("x.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let both = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "-o", path,
                                             "--placeholder", "--stats"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == printed)
        let stats = try #require(both.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        #expect(json["placeholder"] as? String == printed)
        let written = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(try ThumbHash(image: written).base64 == printed)

        // --placeholder-image writes the picture the hash stands for: the library's decoding of the printed hash.
        let image = Self.temporaryPath("placeholder.png")
        defer { try? FileManager.default.removeItem(atPath: image) }
        let drawn = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "--max-size", "320", "--placeholder-image", image])
        #expect(drawn.status == 0 && drawn.stdout.isEmpty, "\(drawn.stderr)")
        let placeholder = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: image))))
        #expect(placeholder == hash.image())

        let neither = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90")])
        #expect(neither.status == 64 && neither.stderr.contains("--placeholder"), "\(neither.stderr)")
    }

    @Test func anOutputExtensionItCannotWriteIsRefused() async throws {
        let path = Self.temporaryPath("x.gif")
        let output = try await InfoCommandTests.run(["thumbnail", Fixtures.path("rotate-90"), "-o", path])
        #expect(output.status == 64)
        #expect(output.stderr.contains("cannot write a .gif file"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func maxBytesStopsAServerThatIgnoresRangeMidBody() async throws {
        let movie = try Fixtures.bytes("h264-bframes")    // moov at the end: its index lies past the first 20,000 bytes
        var faults = TestHTTPServer.Faults()
        faults.ignoresRange = true
        // Slow enough (the movie takes 170 ms) that the client stops before the server has sent it all, however
        // late a loaded machine runs the client: unthrottled, the whole movie can be in the socket before it reads.
        faults.bandwidth = 500_000
        let server = try await TestHTTPServer(files: ["/a.mp4": movie], faults: faults)
        defer { Task { try? await server.shutdown() } }
        let output = try await InfoCommandTests.run(["thumbnail", server.url("/a.mp4"), "-o", Self.temporaryPath("x.png"),
                                               "--max-bytes", "20000", "--stats"])
        #expect(output.status == 65)  // the input passed its budget: bad input, not a failed read
        #expect(output.stderr.contains("byte budget of 20000 bytes reached"), "\(output.stderr)")
        let stats = try #require(output.stderr.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        let bytes = try #require(json["bytes"] as? Int)
        #expect(bytes > 20_000 && bytes < movie.count, "\(bytes) of \(movie.count) bytes")
    }

    /// Runs `thumbs thumbnail url --cache-dir dir -o out` and gives the picture's bytes.
    static func thumbnail(of url: String, cacheDirectory: String) async throws -> Data {
        let output = temporaryPath("cached.png")
        let run = try await InfoCommandTests.run(["thumbnail", url, "--cache-dir", cacheDirectory, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test(arguments: ["h264-bframes", "fragmented"])
    func aKeptIndexMakesTheNextThumbnailOfAURLOneRequest(_ name: String) async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes(name)])
        defer { Task { try? await server.shutdown() } }
        let directory = Self.temporaryPath("index-cache")
        let first = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        let listed = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(listed.filter { $0.hasSuffix(".movieindex") }.count == 1)
        #expect(Set(listed.filter { !$0.hasSuffix(".movieindex") }) == ["origins.json"])
        server.resetLog()
        let second = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        #expect(second == first)
        // The keyframe alone, asked for only if the resource is still the version the index was read from.
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.ifRange != nil)
        #expect(server.requests.first?.status == 206)
    }

    @Test func whatAnOriginAnswersToSeveralRangesIsKeptInTheCacheDirectory() async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-bframes")])
        defer { Task { try? await server.shutdown() } }
        let directory = Self.temporaryPath("index-cache")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let origins = URL(fileURLWithPath: directory).appendingPathComponent("origins.json")
        let origin = "http://127.0.0.1:\(server.port)"
        func kept() throws -> [String: String] {
            try JSONDecoder().decode([String: String].self, from: Data(contentsOf: origins))
        }
        func forgetIndexes() throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".movieindex") {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
        }
        // Known to answer multipart (from an earlier process): the ends in one request.
        try Data("{\"\(origin)\": \"multipart\"}".utf8).write(to: origins)
        let first = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        #expect(server.requests.first?.range == "bytes=0-81919,-81920")
        #expect(try kept() == [origin: "multipart"])
        // The server now refuses several ranges: the refusal is learnt and kept.
        server.update { $0.multipleRanges = .refused }
        try forgetIndexes()
        server.resetLog()
        #expect(try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory) == first)
        #expect(server.requests.first?.status == 416)
        #expect(try kept() == [origin: "oneRangeAtATime"])
        // The next process asks for the ends as two ranges side by side.
        try forgetIndexes()
        server.resetLog()
        #expect(try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory) == first)
        #expect(Set(server.requests.prefix(2).map(\.range)) == ["bytes=0-81919", "bytes=-81920"])
    }

    @Test func aReplacedResourceIsReadAgainAndItsIndexKeptAnew() async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-bframes")])
        defer { Task { try? await server.shutdown() } }
        let directory = Self.temporaryPath("index-cache")
        let first = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        // A new ETag from now on: the kept index's If-Range no longer matches, and the server answers 200.
        let served = server.requests.count
        server.update { $0.changeETagAfterRequests = served }
        server.resetLog()
        let second = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        #expect(second == first)
        #expect(server.requests.first?.status == 200)
        #expect(server.requests.count > 1)
        server.resetLog()
        _ = try await Self.thumbnail(of: server.url("/a.mp4"), cacheDirectory: directory)
        #expect(server.requests.count == 1)
    }

    /// An index directory that cannot be made is an I/O failure named by its option (exit 74), not an error thrown
    /// out of the command (exit 1, with neither the option nor the input).
    @Test func anIndexDirectoryThatCannotBeMadeIsAnIOError() async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-bframes")])
        defer { Task { try? await server.shutdown() } }
        let blocker = Self.temporaryPath("a-file")
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let run = try await InfoCommandTests.run(["thumbnail", server.url("/a.mp4"), "--cache-dir", blocker + "/index", "-o", Self.temporaryPath("x.png")])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "thumbs: --cache-dir \(blocker)/index: Not a directory\n")
    }

    /// The index directory is a saving, not the work: when the index cannot be written there (an immutable directory,
    /// which even root cannot write to), the thumbnail is still written and the command succeeds, with a warning. It
    /// used to end with exit 65 and no picture.
    @Test(.enabled(if: ThumbnailCommandTests.immutableDirectoriesWork,
                   "needs chattr +i (e2fsprogs) on a file system with the immutable flag"))
    func anIndexThatCannotBeKeptStillGivesTheThumbnail() async throws {
        let server = try await TestHTTPServer(files: ["/a.mp4": try Fixtures.bytes("h264-bframes")])
        defer { Task { try? await server.shutdown() } }
        let directory = Self.temporaryPath("immutable-cache")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #require(Self.chattr("+i", directory), "chattr +i worked on a scratch directory but not here")
        defer { _ = Self.chattr("-i", directory) }
        let output = Self.temporaryPath("kept.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try await InfoCommandTests.run(["thumbnail", server.url("/a.mp4"), "--cache-dir", directory, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "thumbs: warning: --cache-dir \(directory): the index was not kept: Operation not permitted\n"
            + "thumbs: warning: --cache-dir \(directory): what origins answer was not kept: Operation not permitted\n")
        let picture = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(Self.pngSize(picture) == [320, 240])
    }

    /// Whether `chattr +i` makes a scratch directory in the temporary folder immutable here (and `-i` undoes it).
    static let immutableDirectoriesWork: Bool = {
        let directory = temporaryPath("immutable-probe")
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let works = chattr("+i", directory)
        if works { _ = chattr("-i", directory) }
        return works
    }()

    /// Runs `chattr flag path`; whether it succeeded.
    static func chattr(_ flag: String, _ path: String) -> Bool {
        (try? CapturedRun.waiting(URL(fileURLWithPath: "/usr/bin/chattr"), [flag, path]))?.status == 0
    }

    /// An HLS playlist (by its name) and a DASH manifest without an extension (by its content) give their streams'
    /// pictures, and `--stats` says which rendition and segment, and what was read: the playlists, the init segment
    /// and the segment.
    @Test func playlistsGiveTheirStreamsPictures() async throws {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/media3-cmaf-multi-segment")
        let path = Self.temporaryPath("stream.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let hls = try await InfoCommandTests.run(["thumbnail", folder.appendingPathComponent("playlist.m3u8").path,
                                                  "--time", "1", "--max-size", "160", "-o", path, "--stats"])
        #expect(hls.status == 0, "\(hls.stderr)")
        #expect(Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: path))) == [160, 90])
        let stats = try #require(hls.stderr.split(separator: "\n").last.map(String.init))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        #expect(object["requests"] as? Int == 4)
        #expect((object["rendition"] as? String)?.hasPrefix("640x360") == true)
        #expect((object["segment"] as? String)?.hasSuffix("video_5.m4s") == true)
        #expect(object["actualTime"] as? Double == 1)

        // The manifest under a name without an extension, beside its segments.
        let copy = URL(fileURLWithPath: Self.temporaryPath("cmaf"))
        try FileManager.default.copyItem(at: folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.moveItem(at: copy.appendingPathComponent("manifest.mpd"), to: copy.appendingPathComponent("manifest"))
        let dash = try await InfoCommandTests.run(["thumbnail", copy.appendingPathComponent("manifest").path, "--time", "2",
                                                   "--max-size", "160", "-o", path])
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(Self.pngSize(try Data(contentsOf: URL(fileURLWithPath: path))) == [160, 90])

        // The newest keyframe of a live manifest: shaka 7401's later snapshot lists three segments in its last
        // period, from 1028 s, each 2 s and starting with its keyframe.
        let live = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/shaka-7401/dash_1.mpd").path
        let newest = try await InfoCommandTests.run(["thumbnail", live, "--latest", "-o", path, "--stats"])
        #expect(newest.status == 0, "\(newest.stderr)")
        let liveStats = try #require(newest.stderr.split(separator: "\n").last.map(String.init))
        let liveObject = try #require(try JSONSerialization.jsonObject(with: Data(liveStats.utf8)) as? [String: Any])
        #expect(liveObject["actualTime"] as? Double == 1032)
        let both = try await InfoCommandTests.run(["thumbnail", live, "--latest", "--time", "3", "-o", path])
        #expect(both.status == 64)
    }
}

/// A hostile index from an origin that hides its length and refuses suffix ranges: a moov of 200,000 empty traks.
@Suite struct HostileIndexCommandTests {
    /// Every mode, from every kind of origin, also 50 ms away: a clean bad-input error after a handful of requests (it
    /// sent one 8-byte request per box with `--index video`, over 300 in 15 s, and did not end).
    @Test(.timeLimit(.minutes(2)),
          arguments: [(index: "whole", kind: "multipart", delay: 0.0), (index: "video", kind: "multipart", delay: 0.0),
                      (index: "video", kind: "whole", delay: 0.0), (index: "video", kind: "refused", delay: 0.0),
                      (index: "video", kind: "firstRange", delay: 0.05), (index: "whole", kind: "whole", delay: 0.05)])
    func aMoovOfManyEmptyTracksEndsAtOnce(index: String, kind: String, delay: Double) async throws {
        var faults = TestHTTPServer.Faults()
        faults.hidesLength = true
        faults.refusesSuffixRanges = true
        faults.responseDelay = delay
        faults.multipleRanges = ["whole": .whole, "refused": .refused, "firstRange": .firstRange][kind] ?? .multipart
        let server = try await TestHTTPServer(files: ["/hostile.mp4": HostileMovies.manyEmptyTracks(count: 200_000)], faults: faults)
        defer { Task { try? await server.shutdown() } }
        let output = try await InfoCommandTests.run(["thumbnail", server.url("/hostile.mp4"), "--index", index,
                                                     "-o", ThumbnailCommandTests.temporaryPath("hostile.png")])
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("limit") || output.stderr.contains("more than"), "\(output.stderr)")
        // The count is what ended the hang (its time follows from it: a few round trips); the time limit catches one.
        #expect(server.requestCount <= 12, "\(server.requests.map { $0.range ?? "" })")
    }
}
