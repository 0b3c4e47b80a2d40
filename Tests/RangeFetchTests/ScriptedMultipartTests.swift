import ByteSources
import MP4Box
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs

/// The scripted server (HTTPFuzzer's) answers a request for several ranges with `multipart/byteranges`, as nginx
/// does, and bends that body on the script's say: the locator's first read, the head and the tail in one request,
/// then goes through the multipart reader whatever the body holds, and every step still ends as bytes within what
/// was asked or a typed error.
@Suite struct ScriptedMultipartTests {
    /// An HTTPFuzzer input: options byte 64 + 128 (ends of 1 KiB, so a fixture of a few KiB gets a multipart answer,
    /// from an origin known to answer so), `script`, then the file.
    static func input(script: [UInt8], file: [UInt8]) -> [UInt8] {
        [64 + 128, UInt8(script.count >> 8), UInt8(script.count & 0xff)] + script + file
    }

    @Test(arguments: ["h264-faststart", "h264-bframes", "fragmented"])
    func honestMultipartAnswersGiveTheFilesOwnMovie(_ name: String) async throws {
        let file = try Fixtures.bytes(name)
        let fetchCase = try #require(ScriptedFetchCase(Self.input(script: [], file: file)))
        let report = await fetchCase.run()
        #expect(report.violations.isEmpty, "\(report.violations)")
        let direct = try await MovieLocator().locate(in: MemoryByteSource(file)).movie
        #expect(report.movie?.tracks.count == direct.tracks.count)
        #expect(report.movie?.tracks.map(\.samples.count) == direct.tracks.map(\.samples.count))
        let first = try #require(report.exchanges.first)
        #expect(first.hasPrefix("bytes=0-1023,-1024 -> 206"), "\(first)")
        #expect(first.contains("multipart/byteranges"), "\(first)")
    }

    /// Kind 2 bends a part's Content-Range, 6 cuts the body, 7 takes bytes out or puts some in, 9 puts the script's
    /// bytes in a part's headers or the boundary; deltas and chunkings pick the part, the place and the size.
    @Test(arguments: [2, 6, 7, 9], [(1, 1), (2, -3), (3, 5), (4, -40), (5, 100), (7, 0), (8, -128), (11, 17)])
    func bentMultipartAnswersEndInATypedErrorOrTheirBytes(_ kind: UInt8, _ bend: (chunking: Int, delta: Int)) async throws {
        let file = try Fixtures.bytes("h264-faststart")
        var script: [UInt8] = [kind, 0, UInt8(bend.chunking), UInt8(bitPattern: Int8(bend.delta))]
        if kind == 9 { script += Array("Content-Range: bytes 0-1023/9\r\nX: y".utf8) }
        let fetchCase = try #require(ScriptedFetchCase(Self.input(script: script, file: file)))
        let report = await fetchCase.run()
        #expect(report.violations.isEmpty, "\(report.violations); outcomes \(report.outcomes); exchanges \(report.exchanges)")
        #expect(report.outcomes.count == 6, "\(report.outcomes)")
        // A bend that changes the body makes the locator's read a typed fetch error (the multipart reader's
        // invalidResponse, contentRangeMismatch or truncatedBody), never other bytes taken for the file's.
        if bend.delta != 0 { #expect(report.outcomes.first?.hasPrefix("fetch ") == true, "\(report.outcomes)") }
        let first = try #require(report.exchanges.first)
        #expect(first.contains("multipart/byteranges"), "\(first)")
    }
}
