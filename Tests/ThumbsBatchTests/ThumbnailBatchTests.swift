import ByteSources
import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs
@testable import ThumbsBatch

/// `ThumbnailBatch` over fixture files in a scratch folder: every picture made or its failure told, a second batch
/// skipping what is current, a changed input made again, a stop that leaves only whole outputs.
@Suite struct ThumbnailBatchTests {
    /// A scratch folder with copies of `names` (fixture names) and a folder for the outputs.
    struct Library {
        let root: URL
        var media: URL { root.appendingPathComponent("media") }
        var out: URL { root.appendingPathComponent("out") }

        init(_ names: [String]) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("media"), withIntermediateDirectories: true)
            for name in names {
                try FileManager.default.copyItem(atPath: Fixtures.path(name),
                                                 toPath: root.appendingPathComponent("media/\(name).mp4").path)
            }
        }

        func items(_ names: [String]) -> [BatchItem] {
            names.map { BatchItem(input: FileInput(path: media.appendingPathComponent("\($0).mp4").path), output: "\($0).png") }
        }

        /// Every file under the output folder, relative to it (hidden ones too).
        func written() -> [String] {
            let walker = FileManager.default.enumerator(atPath: out.path)
            return ((walker?.allObjects as? [String]) ?? []).sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func run(_ batch: ThumbnailBatch) async -> [String: BatchResult] {
        var results: [String: BatchResult] = [:]
        for await result in batch.results() { results[result.item.output] = result }
        return results
    }

    static let movies = ["h264-faststart", "rotate-90", "hevc-8bit"]

    /// Each movie's thumbnail is written, at the size ffprobe's display size fitted to 64 gives, from ffprobe's keyframe
    /// nearest 10 %; the audio-only file and a missing one fail with their typed errors; the progress counts them all.
    @Test func everyReadableMovieIsMadeAndEveryFailureTold() async throws {
        let library = try Library(Self.movies + ["audio-only"])
        defer { library.remove() }
        var items = library.items(Self.movies + ["audio-only"])
        items.append(BatchItem(input: FileInput(path: library.media.appendingPathComponent("missing.mp4").path),
                               output: "missing.png"))
        var options = ThumbnailBatch.Options()
        options.thumbnail.maximumSize = PixelSize(width: 64, height: 64)
        let results = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        #expect(results.count == 5)
        for name in Self.movies {
            let result = try #require(results["\(name).png"])
            guard case .made = result.outcome else {
                Issue.record("\(name): \(result.outcome)")
                continue
            }
            let expected = try Fixtures.expectation(name)
            let scale = Double(try #require(expected.timescale))
            let keys = expected.packets.filter(\.key).map { Double($0.pts) / scale }
            let duration = Double(try #require(expected.packets.map { $0.pts + $0.duration }.max())) / scale
            let nearest = try #require(keys.min { abs($0 - duration / 10) < abs($1 - duration / 10) })
            #expect(abs((result.actualTime ?? -1) - nearest) < 0.001, "\(name): \(result.actualTime ?? -1), ffprobe \(nearest)")
            let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: library.out.appendingPathComponent("\(name).png"))))
            #expect(max(image.width, image.height) == 64)
        }
        let audio = try #require(results["audio-only.png"])
        guard case .failed(let audioError) = audio.outcome else { throw Failure("audio-only: \(audio.outcome)") }
        #expect((audioError as? ThumbnailError)?.code == .noVideo)
        let missing = try #require(results["missing.png"])
        guard case .failed(let missingError) = missing.outcome else { throw Failure("missing: \(missing.outcome)") }
        #expect(missingError is ReadError)
        let last = try #require(results.values.max { $0.progress.done < $1.progress.done })
        #expect(last.progress.total == 5 && last.progress.made == 3 && last.progress.skipped == 0 && last.progress.failed == 2)
        #expect(!library.written().contains { $0.contains(".partial-") })
    }

    /// A second batch skips every output made, reading nothing; one whose input was rewritten since is made again;
    /// other options make every one again; `remakesAll` too.
    @Test func aSecondBatchSkipsWhatIsCurrent() async throws {
        let library = try Library(Self.movies)
        defer { library.remove() }
        let items = library.items(Self.movies)
        var options = ThumbnailBatch.Options()
        options.thumbnail.maximumSize = PixelSize(width: 64, height: 64)
        let batch = ThumbnailBatch(items: items, outputDirectory: library.out, options: options)
        #expect(await Self.run(batch).values.allSatisfy { $0.outcome.name == "made" })
        let again = await Self.run(batch)
        #expect(again.values.allSatisfy { $0.outcome.name == "skipped" && $0.bytesFetched == 0 })

        // The same bytes written again: a new modification time, so a new version.
        let rewritten = library.media.appendingPathComponent("rotate-90.mp4")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: rewritten.path)
        let afterChange = await Self.run(batch)
        #expect(afterChange.mapValues(\.outcome.name) == ["h264-faststart.png": "skipped", "rotate-90.png": "made",
                                                          "hevc-8bit.png": "skipped"])
        var larger = options
        larger.thumbnail.maximumSize = PixelSize(width: 96, height: 96)
        let resized = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: larger))
        #expect(resized.values.allSatisfy { $0.outcome.name == "made" })
        var forced = larger
        forced.remakesAll = true
        let remade = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: forced))
        #expect(remade.values.allSatisfy { $0.outcome.name == "made" })
        // A deleted output is made again.
        try FileManager.default.removeItem(at: library.out.appendingPathComponent("hevc-8bit.png"))
        let refilled = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: larger))
        #expect(refilled["hevc-8bit.png"]?.outcome.name == "made")
        #expect(refilled["h264-faststart.png"]?.outcome.name == "skipped")
    }

    /// Forty forced batches of two movies add four lines each (each output voided, then recorded); a batch that finds
    /// more than twice as many lines as entries, and 64 more, writes the two entries alone first: the ledger never
    /// passes 68 + 4 lines, falls back to 2 + 4 on the way, and a batch after them still skips both movies.
    /// A Matroska or WebM file (read as a stream of its cue spans) is skipped by a second batch as a movie is: its
    /// picture's version is the file's, not the movie its span was written as.
    @Test func aSecondBatchSkipsACurrentMatroskaFile() async throws {
        let library = try Library([])
        defer { library.remove() }
        let copy = library.media.appendingPathComponent("clip.webm")
        try FileManager.default.copyItem(atPath: MatroskaReferences.folder.appendingPathComponent("vp9-8bit.cues-back.webm").path,
                                         toPath: copy.path)
        let batch = ThumbnailBatch(items: [BatchItem(input: FileInput(path: copy.path), output: "clip.png")], outputDirectory: library.out)
        #expect(await Self.run(batch)["clip.png"]?.outcome.name == "made")
        let again = await Self.run(batch)
        #expect(again["clip.png"]?.outcome.name == "skipped" && again["clip.png"]?.bytesFetched == 0)
    }

    @Test func theLedgerIsWrittenAgainWhenMostOfItIsOld() async throws {
        let library = try Library(["h264-faststart", "rotate-90"])
        defer { library.remove() }
        let items = library.items(["h264-faststart", "rotate-90"])
        var forced = ThumbnailBatch.Options()
        forced.remakesAll = true
        let ledger = library.out.appendingPathComponent(BatchLedger.fileName)
        var counts: [Int] = []
        for _ in 0..<40 {
            _ = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: forced))
            counts.append(try String(contentsOf: ledger, encoding: .utf8).split(separator: "\n").count)
        }
        #expect(counts.max() ?? 0 <= 72 && counts.contains(6), "\(counts)")
        let skipped = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out))
        #expect(skipped.values.map(\.outcome.name) == ["skipped", "skipped"])
    }

    /// Stopped after its first result, a batch of 120 movies ends without starting the rest: fewer results than
    /// movies, every output there a whole PNG, no temporary file left, and every ledger line whole.
    @Test func aStoppedBatchLeavesOnlyWholeOutputs() async throws {
        let library = try Library(["h264-faststart"])
        defer { library.remove() }
        // 120 inputs of their own (hard links to one file): no two share work.
        let items = try (0..<120).map { number in
            let link = library.media.appendingPathComponent("link-\(number).mp4")
            try FileManager.default.linkItem(at: library.media.appendingPathComponent("h264-faststart.mp4"), to: link)
            return BatchItem(input: FileInput(path: link.path), output: "copies/\(number).png")
        }
        let results = ThumbnailBatch(items: items, outputDirectory: library.out).results()
        var count = 0
        for await _ in results {
            count += 1
            if count == 1 { results.cancel() }
        }
        #expect(count < 120)
        let written = library.written()
        #expect(!written.contains { $0.contains(".partial-") }, "\(written)")
        let pictures = written.filter { $0.hasSuffix(".png") }
        #expect(pictures.count == count, "\(pictures.count) pictures, \(count) results")
        for picture in pictures {
            let bytes = [UInt8](try Data(contentsOf: library.out.appendingPathComponent(picture)))
            #expect((try? ImageDecoder().decode(bytes)) != nil, "\(picture) is not a whole PNG")
        }
        let ledger = try String(contentsOf: library.out.appendingPathComponent(BatchLedger.fileName), encoding: .utf8)
        for line in ledger.split(separator: "\n") {
            #expect((try? JSONDecoder().decode(BatchLedger.Entry.self, from: Data(line.utf8))) != nil, "\(line)")
        }
    }

    /// A companion's folder is whole or absent: one that fails leaves no folder (and no temporary one), and the movie
    /// fails with its error; one that works is put in place, and a second batch skips the movie while it is there. A
    /// movie remade with other options that fails on the way is not skipped by the next batch with the first options:
    /// its entry was voided before anything was replaced.
    struct Refused: Error {}

    /// A companion in the folder `extra`: it writes the item's output name into `made.txt`, or, failing, `half` into
    /// `part.txt` and then throws `Refused`.
    struct TextCompanion: BatchCompanion {
        var key: String
        var fails = false

        func folder(of item: BatchItem) -> String { "extra" }

        func make(of media: Media, item: BatchItem, into folder: URL) async throws {
            try Data((fails ? "half" : item.output).utf8).write(to: folder.appendingPathComponent(fails ? "part.txt" : "made.txt"))
            if fails { throw Refused() }
        }
    }

    @Test func aCompanionFolderIsWholeOrAbsent() async throws {
        let library = try Library(["h264-faststart"])
        defer { library.remove() }
        let items = library.items(["h264-faststart"])
        var options = ThumbnailBatch.Options()
        options.companion = TextCompanion(key: "broken", fails: true)
        let failed = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        guard case .failed(let error) = failed["h264-faststart.png"]?.outcome else { throw Failure("not failed") }
        #expect(error is Refused)
        #expect(!library.written().contains { $0.hasPrefix("extra") || $0.contains(".partial-") }, "\(library.written())")

        options.companion = TextCompanion(key: "working")
        let made = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        #expect(made["h264-faststart.png"]?.outcome.name == "made")
        #expect(try String(contentsOf: library.out.appendingPathComponent("extra/made.txt"), encoding: .utf8) == "h264-faststart.png")
        let skipped = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        #expect(skipped["h264-faststart.png"]?.outcome.name == "skipped")
        try FileManager.default.removeItem(at: library.out.appendingPathComponent("extra"))
        let refilled = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        #expect(refilled["h264-faststart.png"]?.outcome.name == "made")

        var other = options
        other.thumbnail.maximumSize = PixelSize(width: 32, height: 32)
        other.companion = TextCompanion(key: "working", fails: true)
        let broken = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: other))
        #expect(broken["h264-faststart.png"]?.outcome.name == "failed")
        let afterBroken = await Self.run(ThumbnailBatch(items: items, outputDirectory: library.out, options: options))
        #expect(afterBroken["h264-faststart.png"]?.outcome.name == "made")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
