import MP4Box
import MP4BoxTestSupport
@testable import RangeFetch
import RangeFetchTestSupport
import Testing

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
        var faults = TestHTTPServer.Faults()
        faults.contentRangeOverride = "bytes 0-18446744073709551615/*"
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: HTTPByteSourceTests.fastOptions())
        await #expect(throws: FetchError.self) { _ = try await source.readSuffix(1000) }
    }

    @Test func suffixAnsweredWithMoreBytesThanAskedIsATypedError() async throws {
        var faults = TestHTTPServer.Faults()
        faults.contentRangeOverride = "bytes 0-99999/100000"
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: HTTPByteSourceTests.fastOptions())
        do {
            _ = try await source.readSuffix(1000)
            Issue.record("a content-range for the whole file was accepted for a suffix of 1000")
        } catch let error as FetchError {
            #expect(error.code == .contentRangeMismatch, "\(error)")
        }
    }

    @Test func readsPastTheLargestFileOffsetReturnNothingWithoutARequest() async throws {
        var faults = TestHTTPServer.Faults()
        faults.hidesLength = true
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: HTTPByteSourceTests.fastOptions())
        #expect(try await source.read(UInt64.max - 10..<UInt64.max) == [])
        #expect(server.requests.isEmpty)
    }

    @Test func serverThatIgnoresRangeIsSkippedByOffsetsBeyondAnInt() async throws {
        var faults = TestHTTPServer.Faults()
        faults.ignoresRange = true
        faults.omitsValidators = true
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: HTTPByteSourceTests.fastOptions())
        // A co64 offset past 2^63 in a file read from a server that ignores Range and sends no length.
        #expect(try await source.read(1 << 63..<(1 << 63) + 100) == [])
    }

    @Test func movieWithAHugeBoxFromAServerThatHidesTheLengthIsMalformed() async throws {
        // Content-Range `bytes 0-N/*`: box ends are still bounded (the locator's unit test does the same in memory).
        let file = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0))
            + BoxBuilder.largeBox("free", largeSize: UInt64.max - 40, BoxBuilder.zeros(256))
        var faults = TestHTTPServer.Faults()
        faults.hidesLength = true
        let server = try await TestHTTPServer(files: ["/f.mp4": file], faults: faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.mp4"), options: HTTPByteSourceTests.fastOptions())
        var options = MovieLocator.Options()
        options.headSize = 64
        do {
            _ = try await MovieLocator(options: options).locate(in: source)
            Issue.record("no error")
        } catch let error as MP4Error {
            #expect(error.code == .malformed, "\(error)")
        }
    }

    @Test func fixtureFromAServerThatHidesTheLengthGivesTheSameMovie() async throws {
        var faults = TestHTTPServer.Faults()
        faults.hidesLength = true
        let server = try await TestHTTPServer(files: ["/f.mp4": try Fixtures.bytes("h264-bframes")], faults: faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.mp4"), options: HTTPByteSourceTests.fastOptions())
        var options = MovieLocator.Options()
        options.headSize = 16 * 1024
        let remote = try await MovieLocator(options: options).locate(in: source).movie
        let local = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path("h264-bframes"))).movie
        #expect(remote.tracks.map(\.samples.count) == local.tracks.map(\.samples.count))
    }
}
