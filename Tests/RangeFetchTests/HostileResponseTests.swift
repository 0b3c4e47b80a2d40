import ByteSources
import MP4Box
import MP4BoxTestSupport
@testable import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// Response headers whose numbers would overflow or size the work: typed errors, never a trap.
@Suite(.timeLimit(.minutes(1))) struct HostileResponseTests {
    @Test(arguments: [
        "bytes 0-18446744073709551615/*",                       // last + 1 overflows
        "bytes 0-18446744073709551614/18446744073709551615",   // a length no file offset can reach
        "bytes 0-9223372036854775807/*",                        // a count that does not fit an Int
        "bytes 5-4/10",                                         // last before first
        "bytes 0-9/5",                                          // last past the complete length
    ])
    func contentRangeThatNoFileCanHaveIsRefused(_ value: String) {
        #expect(ContentRange(value) == nil)
    }

    @Test func contentRangeOfAnUnknownLengthIsKept() throws {
        let range = try #require(ContentRange("bytes 10-19/*"))
        #expect(range.range == 10..<20)
        #expect(range.completeLength == nil)
    }

    @Test func suffixAnsweredWithAHugeContentRangeIsATypedError() async throws {
        try await HTTPByteSourceTests.withSource(faults: .init { $0.contentRangeOverride = "bytes 0-18446744073709551615/*" }) { source, _ in
            await #expect(throws: FetchError.self) { _ = try await source.readSuffix(1000) }
        }
    }

    @Test func suffixAnsweredWithMoreBytesThanAskedIsATypedError() async throws {
        try await HTTPByteSourceTests.withSource(faults: .init { $0.contentRangeOverride = "bytes 0-99999/100000" }) { source, _ in
            // A content-range for the whole file, for a suffix of 1000.
            let error = try await #require(throws: FetchError.self) { _ = try await source.readSuffix(1000) }
            #expect(error.code == .contentRangeMismatch, "\(error)")
        }
    }

    @Test func readsPastTheLargestFileOffsetReturnNothingWithoutARequest() async throws {
        try await HTTPByteSourceTests.withSource(faults: .init { $0.hidesLength = true }) { source, server in
            let bytes = try await source.read(UInt64.max - 10..<UInt64.max)
            #expect(bytes == [])
            #expect(server.requests.isEmpty)
        }
    }

    @Test func serverThatIgnoresRangeIsSkippedByOffsetsBeyondAnInt() async throws {
        let faults = TestHTTPServer.Faults {
            $0.ignoresRange = true
            $0.omitsValidators = true
        }
        try await HTTPByteSourceTests.withSource(faults: faults) { source, _ in
            // A co64 offset past 2^63 in a file read from a server that ignores Range and sends no length.
            let bytes = try await source.read(1 << 63..<(1 << 63) + 100)
            #expect(bytes == [])
        }
    }

    /// The movie `file` located through a server that hides its length (Content-Range `bytes 0-N/*`), with a first
    /// read of `headSize` bytes.
    static func locateWithTheLengthHidden(_ file: [UInt8], headSize: Int) async throws -> MovieLocator.Result {
        try await TestHTTPServer.serving(["/f.mp4": file], faults: .init { $0.hidesLength = true }) { server in
            let source = try HTTPByteSource(url: server.url("/f.mp4"), options: HTTPByteSourceTests.fastOptions())
            var options = MovieLocator.Options()
            options.headSize = headSize
            return try await MovieLocator(options: options).locate(in: source)
        }
    }

    @Test func movieWithAHugeBoxFromAServerThatHidesTheLengthIsMalformed() async throws {
        // Box ends are still bounded (the locator's unit test does the same in memory).
        let file = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0))
            + BoxBuilder.largeBox("free", largeSize: UInt64.max - 40, BoxBuilder.zeros(256))
        let error = try await #require(throws: MP4Error.self) { _ = try await Self.locateWithTheLengthHidden(file, headSize: 64) }
        #expect(error.code == .malformed, "\(error)")
    }

    @Test func fixtureFromAServerThatHidesTheLengthGivesTheSameMovie() async throws {
        let remote = try await Self.locateWithTheLengthHidden(try Fixtures.bytes("h264-bframes"), headSize: 16 * 1024).movie
        let local = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path("h264-bframes"))).movie
        #expect(remote.tracks.map(\.samples.count) == local.tracks.map(\.samples.count))
    }
}
