import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs

/// `thumbs batch` run as a process: outputs that mirror the inputs, the report, the exit status, a second run that
/// skips everything, and Ctrl-C.
@Suite struct BatchCommandTests {
    /// A scratch folder: `media/` with fixture copies at the given relative paths, `out/` for the outputs.
    struct Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-cli-\(UUID().uuidString)")
        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

        init(_ copies: [String: String]) throws {
            for (relative, fixture) in copies {
                let target = root.appendingPathComponent(relative)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: Fixtures.path(fixture), toPath: target.path)
            }
        }

        /// Every file under `relative`, relative to it, hidden ones too, sorted.
        func files(under relative: String) -> [String] {
            let walker = FileManager.default.enumerator(at: root.appendingPathComponent(relative), includingPropertiesForKeys: [.isRegularFileKey])
            let base = root.appendingPathComponent(relative).standardizedFileURL.path
            return ((walker?.allObjects as? [URL]) ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .map { String($0.standardizedFileURL.path.dropFirst(base.count + 1)) }.sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func reportLines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A directory's movies (in subfolders too; a text file and a hidden folder left out) and a list's files, outputs
    /// at their relative paths (a list's at its name), one report line each; the audio-only file fails, so the exit
    /// status is 1 with the count. A second run skips every made one.
    @Test func aDirectoryAndAListMirrorIntoTheOutputs() async throws {
        let scratch = try Scratch(["lib/a.mp4": "h264-faststart", "lib/deep/er/b.mov": "quicktime-h264",
                                   "lib/deep/audio.mp4": "audio-only", "lib/.hidden/c.mp4": "rotate-90",
                                   "elsewhere/d.mp4": "rotate-90", "elsewhere/e.mp4": "hevc-8bit"])
        defer { scratch.remove() }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: scratch.path("lib/notes.txt")))
        try Data("# a comment\n\(scratch.path("elsewhere/d.mp4"))\n\n\(scratch.path("elsewhere/e.mp4"))\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.path("list.txt")))
        let arguments = ["batch", scratch.path("lib"), "--from", scratch.path("list.txt"), "-o", scratch.path("out"),
                         "--max-size", "64", "--format", "jpeg", "--report", scratch.path("report.jsonl")]
        let first = try await InfoCommandTests.run(arguments)
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("audio.mp4") && first.stderr.contains("4 made, 0 skipped, 1 failed of 5"), "\(first.stderr)")
        #expect(scratch.files(under: "out") == [".thumbs-batch.jsonl", "a.jpg", "d.jpg", "deep/er/b.jpg", "e.jpg"])
        for picture in ["a.jpg", "d.jpg", "deep/er/b.jpg", "e.jpg"] {
            let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/\(picture)")))))
            #expect(max(image.width, image.height) == 64, "\(picture)")
        }
        let lines = try Self.reportLines(scratch.path("report.jsonl"))
        #expect(lines.count == 5)
        let byOutput = Dictionary(uniqueKeysWithValues: lines.map { ($0["output"] as? String ?? "", $0) })
        let audio = scratch.path("out/deep/audio.jpg"), a = scratch.path("out/a.jpg")
        #expect(byOutput[audio]?["outcome"] as? String == "failed")
        #expect((byOutput[audio]?["error"] as? [String: String])?["type"] == "ThumbnailError")
        #expect(byOutput[a]?["input"] as? String == scratch.path("lib/a.mp4"))
        #expect(byOutput[a]?["actualTime"] is Double && byOutput[a]?["bytes"] is Int && byOutput[a]?["ms"] is Double)

        let second = try await InfoCommandTests.run(arguments)
        #expect(second.status == 1)
        let again = try Self.reportLines(scratch.path("report.jsonl"))
        #expect(again.filter { $0["outcome"] as? String == "skipped" }.count == 4)
        #expect(second.stderr.contains("0 made, 4 skipped, 1 failed of 5"), "\(second.stderr)")
    }

    /// A directory's Matroska and WebM files are movies of the library too, read by the same rule.
    @Test func aDirectorysMatroskaFilesAreMade() async throws {
        let scratch = try Scratch([:])
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("lib"), withIntermediateDirectories: true)
        for (name, copy) in [("vp9-8bit.cues-back.webm", "lib/a.webm"), ("h264-bframes.cues-back.mkv", "lib/b.MKV"),
                             ("chromium-vp8.webm", "lib/c.webm")] {
            try FileManager.default.copyItem(atPath: MatroskaReferences.folder.appendingPathComponent(name).path, toPath: scratch.path(copy))
        }
        let output = try await InfoCommandTests.run(["batch", scratch.path("lib"), "-o", scratch.path("out")])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("3 made, 0 skipped, 0 failed of 3"), "\(output.stdout)")
        #expect(scratch.files(under: "out").filter { $0.hasSuffix(".png") } == ["a.png", "b.png", "c.png"])
    }

    /// Outputs that would meet keep their inputs' extensions (`a.mp4.png`, `a.mov.png`); URLs that differ only in
    /// their query get a digest too; an input given twice is made once; a path in a list that names nothing fails as
    /// unreadable, alone.
    @Test func outputsThatWouldMeetAreToldApart() async throws {
        let scratch = try Scratch(["m/a.mp4": "h264-faststart", "m/a.mov": "quicktime-h264"])
        defer { scratch.remove() }
        let server = try await TestHTTPServer(files: ["/v": try Fixtures.bytes("rotate-90")])
        defer { Task { try? await server.shutdown() } }
        try Data("\(scratch.path("m/a.mp4"))\n\(scratch.path("gone.mp4"))\n".utf8).write(to: URL(fileURLWithPath: scratch.path("list.txt")))
        let output = try await InfoCommandTests.run(["batch", scratch.path("m"), "--from", scratch.path("list.txt"),
                                                     server.url("/v?id=1"), server.url("/v?id=2"), "-o", scratch.path("out"),
                                                     "--report", scratch.path("report.jsonl")])
        #expect(output.status == 1, "\(output.stderr)")
        let outputs = try Self.reportLines(scratch.path("report.jsonl")).map {
            [(($0["output"] as? String ?? "") as NSString).lastPathComponent, $0["outcome"] as? String ?? ""]
        }
        #expect(outputs.count == 5)
        #expect(outputs.contains(["a.mp4.png", "made"]) && outputs.contains(["a.mov.png", "made"]))
        #expect(outputs.contains(["gone.png", "failed"]))
        let fromURLs = outputs.filter { $0[0].hasPrefix("v-") && $0[1] == "made" }
        #expect(fromURLs.count == 2 && fromURLs[0][0] != fromURLs[1][0], "\(outputs)")
    }

    /// Both report paths are as given: a relative input and `-o` give relative paths; an absolute input gives an
    /// absolute output, `-o` taken from the working directory (the output used to be relative to `-o` whatever the
    /// input was).
    @Test func reportPathsAreAsGiven() throws {
        let scratch = try Scratch(["lib/sub/a.mp4": "h264-faststart", "b.mp4": "rotate-90"])
        defer { scratch.remove() }
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.currentDirectoryURL = scratch.root
        process.arguments = ["batch", "lib", scratch.path("b.mp4"), "-o", "out", "--report", "report.jsonl"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let pairs = try Self.reportLines(scratch.path("report.jsonl")).map { [$0["input"] as? String ?? "", $0["output"] as? String ?? ""] }
        #expect(pairs.sorted { $0[0] < $1[0] } == [[scratch.path("b.mp4"), scratch.path("out/b.png")], ["lib/sub/a.mp4", "out/sub/a.png"]].sorted { $0[0] < $1[0] },
                "\(pairs)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("out/sub/a.png")))
    }

    /// A playlist whose name does not say so (an object key, a renamed file) is a stream to the storyboard companion
    /// as to the thumbnail: both go by the one rule (the companion used to check the name alone and fail it as no
    /// movie). Its track starts at the stream's first keyframe.
    @Test func aPlaylistNotNamedSoGetsItsStoryboardToo() async throws {
        let source = Fixtures.directory.appendingPathComponent("streams/ffmpeg-hls-fmp4-h264-bframes")
        let scratch = try Scratch([:])
        defer { scratch.remove() }
        let stream = scratch.root.appendingPathComponent("stream")
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: stream)
        try FileManager.default.moveItem(at: stream.appendingPathComponent("index.m3u8"), to: stream.appendingPathComponent("playlist"))
        let output = try await InfoCommandTests.run(["batch", stream.appendingPathComponent("playlist").path, "-o", scratch.path("out"),
                                                     "--storyboard", "--max-size", "64"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("out/playlist.png")))
        let track = try String(contentsOfFile: scratch.path("out/playlist.storyboard/storyboard.vtt"), encoding: .utf8)
        #expect(track.hasPrefix("WEBVTT"))
        #expect(track.contains("00:00:00.000 --> "), "\(track)")
    }

    /// `--from -` reads the list from standard input; all made, exit status 0.
    @Test func aListOnStandardInput() throws {
        let scratch = try Scratch(["m/x.mp4": "h264-faststart", "m/y.mp4": "rotate-90"])
        defer { scratch.remove() }
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["batch", "--from", "-", "-o", scratch.path("out")]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("\(scratch.path("m/x.mp4"))\n\(scratch.path("m/y.mp4"))\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(scratch.files(under: "out") == [".thumbs-batch.jsonl", "x.png", "y.png"])
    }

    /// Ctrl-C in the middle of 300 movies: the process stops soon with status 130 and says what was not done; every
    /// output there is a whole picture, none is at a temporary name, and the report has a line for each.
    @Test(.timeLimit(.minutes(2))) func ctrlCStopsCleanly() async throws {
        let scratch = try Scratch(["one.mp4": "h264-faststart"])
        defer { scratch.remove() }
        // 300 hard links to one movie, each in a folder of its own (so their outputs differ).
        for number in 0..<300 {
            let folder = scratch.path("links/\(number)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: scratch.path("one.mp4"), toPath: folder + "/one.mp4")
        }
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["batch", scratch.path("links"), "-o", scratch.path("out"), "--jobs", "2",
                             "--report", scratch.path("report.jsonl")]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        while process.isRunning, scratch.files(under: "out").filter({ $0.hasSuffix(".png") }).count < 3 {
            try await Task.sleep(for: .milliseconds(5))
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("stopped:") && stderr.contains("not done"), "\(stderr)")
        let written = scratch.files(under: "out")
        #expect(!written.contains { $0.contains(".partial-") }, "\(written)")
        let pictures = written.filter { $0.hasSuffix(".png") }
        #expect(pictures.count < 300)
        for picture in pictures {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/\(picture)"))))
            #expect((try? ImageDecoder().decode(bytes)) != nil, "\(picture) is not a whole PNG")
        }
        #expect(try Self.reportLines(scratch.path("report.jsonl")).count == pictures.count)
    }

    @Test(arguments: [["batch", "-o", "/tmp/x"], ["batch", "a.mp4", "-o", "/tmp/x", "--latest"],
                      ["batch", "a.mp4", "-o", "/tmp/x", "--frame", "3"], ["batch", "a.mp4", "-o", "/tmp/x", "--jobs", "0"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) async throws {
        #expect(try await InfoCommandTests.run(arguments).status == 64)
    }
}
