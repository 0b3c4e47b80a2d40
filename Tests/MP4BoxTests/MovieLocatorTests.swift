import MP4Box
import MP4BoxTestSupport
import Testing

/// How many reads and bytes finding the index costs.
@Suite struct MovieLocatorTests {
    @Test func faststartFileCostsOneRead() async throws {
        let result = try await MovieLocator().locate(in: try FileByteSource(path: Fixtures.path("h264-faststart")))
        #expect(result.reads.count == 1)
        #expect(result.reads[0].range.lowerBound == 0)
        #expect(result.movie.moovOffset < 100)
    }

    @Test func moovAtTheEndCostsTwoReadsTheSecondFromTheEndOfMdat() async throws {
        let result = try await MovieLocator().locate(in: try FileByteSource(path: Fixtures.path("h264-bframes")))
        #expect(result.reads.count == 2)
        let mdat = try #require(result.topLevelBoxes.first { $0.type == "mdat" })
        #expect(result.reads[1].range.lowerBound == mdat.endOffset)
        #expect(result.reads[1].range.upperBound == result.fileLength)
        #expect(result.movie.moovOffset == mdat.endOffset)
    }

    @Test func smallHeadStillFindsMoovAtTheEnd() async throws {
        var options = MovieLocator.Options()
        options.headSize = 64
        let result = try await MovieLocator(options: options).locate(in: try FileByteSource(path: Fixtures.path("h264-bframes")))
        #expect(result.reads.count == 2)
        #expect(result.bytesRead == 64 + Int(result.movie.moovHeader.size ?? 0))
    }

    @Test func largeTailIsWalkedByHeadersInsteadOfReadWhole() async throws {
        var options = MovieLocator.Options()
        options.headSize = 64
        options.tailReadLimit = 16
        let result = try await MovieLocator(options: options).locate(in: try FileByteSource(path: Fixtures.path("h264-bframes")))
        #expect(result.reads.count == 3)  // head, header at the end of mdat (with read-ahead), rest of moov
    }

    @Test func fragmentedFileReadsInitSegmentSidxAndEveryMoof() async throws {
        let result = try await MovieLocator().locate(in: try FileByteSource(path: Fixtures.path("fragmented")))
        #expect(result.movie.isFragmented)
        #expect(result.movie.fragmentCount == result.topLevelBoxes.filter { $0.type == "moof" }.count)
    }

    @Test func initSegmentOnlyWhenFragmentsAreNotWanted() async throws {
        var options = MovieLocator.Options()
        options.readsAllFragments = false
        options.headSize = 1024
        let result = try await MovieLocator(options: options).locate(in: try FileByteSource(path: Fixtures.path("fragmented")))
        #expect(result.reads.count == 1)
        #expect(result.movie.fragmentCount == 0)
    }

    @Test func readsAreRecordedAsTheSourceSawThem() async throws {
        let source = RecordingByteSource(try FileByteSource(path: Fixtures.path("h264-bframes")))
        let result = try await MovieLocator().locate(in: source)
        #expect(await source.ranges == result.reads.map(\.range))
    }
}
