import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// Errors read as one sentence that says where (the input, the box path, the offset) and what; a file that is not a
/// movie says so, apart from a movie cut short.
@Suite struct ErrorTextTests {
    static func locateError(_ bytes: [UInt8], named name: String) async throws -> MP4Error {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await #require(throws: MP4Error.self) { _ = try await MovieLocator().locate(in: FileByteSource(path: path)) }
    }

    @Test func aTextFileIsNotAMovieAndTheMessageNamesTheFileAndTheQuotedType() async throws {
        let error = try await Self.locateError(Array(String(repeating: "not a movie\n", count: 300).utf8), named: "notes.mp4")
        #expect(error.code == .notAMovie)
        #expect(error.input?.hasSuffix("notes.mp4") == true)
        #expect(error.description.hasPrefix(error.input ?? "-"))
        #expect(error.description.contains("'a mo'"))
        #expect(!error.description.contains("at offset 0 at"))
    }

    @Test func garbageTypesAreEscapedInQuotes() async throws {
        let error = try await Self.locateError([0, 0, 0, 16, 0x01, 0x02, 0x41, 0x42] + Array(repeating: 0, count: 8), named: "blob.mp4")
        #expect(error.code == .notAMovie)
        #expect(error.description.contains(#"'\x01\x02AB'"#))
    }

    @Test func aMovieCutShortIsNotANonMovie() async throws {
        let bytes = try Fixtures.bytes("h264-faststart")
        let error = try await Self.locateError(Array(bytes.prefix(300)), named: "cut.mp4")    // inside moov
        #expect(error.code == .needMoreBytes)
        #expect(error.description.hasPrefix(error.input ?? "-"))
    }

    @Test func aMissingFileIsNamedOnceAndHasNoOffset() throws {
        let error = try #require(throws: MP4Error.self) { _ = try FileByteSource(path: "/nonexistent/movie.mp4") }
        #expect(error.code == .readFailed)
        #expect(error.description == "/nonexistent/movie.mp4: cannot open the file: no such file or directory")
    }

    @Test func byteRangesAreWrittenOneWay() {
        #expect(ByteRange.text(100..<200) == "100-199")
        #expect(ByteRange.text(7..<7) == "none at 7")
    }
}
