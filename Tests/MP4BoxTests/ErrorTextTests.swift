import MP4Box
import MP4BoxTestSupport
import Testing

/// Errors read as one sentence that says where (the input, the box path, the offset) and what; a file that is not a
/// movie says so, apart from a movie cut short.
@Suite struct ErrorTextTests {
    static func locateError(_ bytes: [UInt8], named name: String) throws -> MP4Error {
        try #require(throws: MP4Error.self) { _ = try MovieLocator().locate(in: MemoryFile(bytes, name: name)) }
    }

    @Test func aTextFileIsNotAMovieAndTheMessageNamesTheFileAndTheQuotedType() async throws {
        let error = try Self.locateError(Array(String(repeating: "not a movie\n", count: 300).utf8), named: "notes.mp4")
        #expect(error.code == .notAMovie)
        #expect(error.input?.hasSuffix("notes.mp4") == true)
        #expect(error.description.hasPrefix(error.input ?? "-"))
        #expect(error.description.contains("'a mo'"))
        #expect(!error.description.contains("at offset 0 at"))
    }

    @Test func garbageTypesAreEscapedInQuotes() async throws {
        let error = try Self.locateError([0, 0, 0, 16, 0x01, 0x02, 0x41, 0x42] + Array(repeating: 0, count: 8), named: "blob.mp4")
        #expect(error.code == .notAMovie)
        #expect(error.description.contains(#"'\x01\x02AB'"#))
    }

    @Test func aMovieCutShortIsNotANonMovie() async throws {
        let bytes = try Fixtures.bytes("h264-faststart")
        let error = try Self.locateError(Array(bytes.prefix(300)), named: "cut.mp4")    // inside moov
        #expect(error.code == .needMoreBytes)
        #expect(error.description.hasPrefix(error.input ?? "-"))
    }
}
