import ByteSources
import Testing

/// What a file source's failures say: the input, the offset where there is one, then what.
@Suite struct ReadErrorTests {
    @Test func aMissingFileIsNamedOnceAndHasNoOffset() throws {
        let error = try #require(throws: ReadError.self) { _ = try FileByteSource(path: "/nonexistent/movie.mp4") }
        #expect(error.code == .cannotOpen)
        #expect(error.description == "/nonexistent/movie.mp4: cannot open the file: no such file or directory")
    }

    @Test func aDirectoryCannotBeReadAndTheErrorSaysWhere() async throws {
        // A directory opens read-only on Linux; reading it fails with EISDIR at the first byte asked for.
        let source = try FileByteSource(path: "/tmp", name: "shown.mp4")
        let error = await #expect(throws: ReadError.self) { _ = try await source.read(0..<16) }
        #expect(error?.code == .cannotRead)
        #expect(error?.description.hasPrefix("shown.mp4, offset 0: cannot read bytes ") == true)
    }

    @Test func aSuffixOfASourceWithoutALengthIsRefusedAsSuch() async throws {
        let error = await #expect(throws: ReadError.self) { _ = try await LengthlessSource().readSuffix(10) }
        #expect(error?.code == .suffixNeedsLength)
        // The ends of such a source are its head alone.
        let ends = try await LengthlessSource().readEnds(head: 4, tail: 4)
        #expect(ends.head == [0, 1, 2, 3])
        #expect(ends.tail.isEmpty)
        #expect(ends.length == nil)
    }

    @Test func byteRangesAreWrittenOneWay() {
        #expect(ByteRange.text(100..<200) == "100-199")
        #expect(ByteRange.text(7..<7) == "none at 7")
    }
}

/// Sixteen bytes whose length the source does not tell.
private struct LengthlessSource: ByteSource {
    var knownLength: UInt64? { nil }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        (min(range.lowerBound, 16)..<min(range.upperBound, 16)).map { UInt8($0) }
    }
}
