import MP4Box
import MP4BoxTestSupport
import Testing

/// Cases ffmpeg cannot make, built in code: the builder's layout is the oracle.
@Suite struct SyntheticMovieTests {
    static func parse(_ movie: SyntheticMovie) throws -> MovieTrack {
        let parsed = try MovieParser.parse(fileBytes: movie.bytes())
        return try #require(parsed.tracks.first)
    }

    /// Checks offsets, sizes, decode times, composition offsets and sync flags against what the builder wrote.
    static func expectSamples(_ track: MovieTrack, _ movie: SyntheticMovie, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let offsets = movie.expectedOffsets()
        #expect(track.samples.count == movie.sampleSizes.count, sourceLocation: sourceLocation)
        var decodeTime: Int64 = 0
        for index in 0..<movie.sampleSizes.count {
            let sample = try track.samples.sample(at: index)
            #expect(sample.offset == offsets[index], "offset \(index)", sourceLocation: sourceLocation)
            #expect(sample.size == movie.sampleSizes[index], "size \(index)", sourceLocation: sourceLocation)
            #expect(sample.decodeTime == decodeTime, "dts \(index)", sourceLocation: sourceLocation)
            #expect(sample.compositionOffset == Int64(movie.compositionOffsets?[index] ?? 0), sourceLocation: sourceLocation)
            #expect(sample.isSync == (movie.syncSamples?.contains(UInt32(index + 1)) ?? true), "sync \(index)", sourceLocation: sourceLocation)
            decodeTime += Int64(movie.durations[index])
        }
    }

    @Test func defaultLayoutParsesExactly() throws {
        let movie = SyntheticMovie()
        try Self.expectSamples(try Self.parse(movie), movie)
    }

    @Test func co64ChunkOffsetsParse() throws {
        var movie = SyntheticMovie()
        movie.useCO64 = true
        try Self.expectSamples(try Self.parse(movie), movie)
    }

    @Test(arguments: [4, 8, 16])
    func compactSampleSizesParse(_ field: Int) throws {
        var movie = SyntheticMovie()
        movie.compactSampleSizeField = field
        movie.sampleSizes = [15, 3, 7, 1, 9, 14, 2, 11]  // fit in 4 bits
        try Self.expectSamples(try Self.parse(movie), movie)
    }

    @Test func oddSampleCountWithFourBitSizes() throws {
        var movie = SyntheticMovie()
        movie.compactSampleSizeField = 4
        movie.sampleSizes = [15, 3, 7, 1, 9, 14, 2]
        movie.durations = Array(movie.durations.prefix(7))
        movie.compositionOffsets = Array(movie.compositionOffsets!.prefix(7))
        movie.samplesPerChunk = [3, 3, 1]
        try Self.expectSamples(try Self.parse(movie), movie)
    }

    @Test func severalSampleEntriesAreKeptAndReferenced() throws {
        var movie = SyntheticMovie()
        movie.sampleEntryCount = 2
        movie.descriptionIndexPerChunk = [1, 2, 1]
        let track = try Self.parse(movie)
        #expect(track.sampleEntries.count == 2)
        #expect(try track.samples.sample(at: 0).descriptionIndex == 1)
        #expect(try track.samples.sample(at: 3).descriptionIndex == 2)
        #expect(try track.samples.sample(at: 7).descriptionIndex == 1)
        try Self.expectSamples(track, movie)
    }

    @Test func emptyEditAtTheStartDelaysPresentation() throws {
        var movie = SyntheticMovie()
        // 1 s of nothing (movie timescale 1000), then the media from 1024.
        movie.edits = [(1000, -1, 0x10000), (4000, 1024, 0x10000)]
        let track = try Self.parse(movie)
        let first = try #require(try track.firstPresentedSample())
        #expect(first.index == 0)
        #expect(track.presentationTime(of: first) == 12800)  // 1 s at 12800
        #expect(abs(track.durationSeconds - 5.0) < 1e-9)
        // At 0.5 s nothing is shown yet: the first frame is the answer.
        #expect(try track.sample(displayedAt: 6400)?.index == 0)
    }

    @Test func editListVersion1Parses() throws {
        var movie = SyntheticMovie()
        movie.editListVersion1 = true
        let track = try Self.parse(movie)
        #expect(track.edits.count == 1)
        #expect(track.edits[0].mediaTime == 1024)
        #expect(try track.presentationTime(of: track.samples.sample(at: 0)) == 0)
    }

    @Test func noStssMeansEverySampleIsSync() throws {
        var movie = SyntheticMovie()
        movie.syncSamples = nil
        let track = try Self.parse(movie)
        #expect(track.samples.syncSampleCount == 8)
        try Self.expectSamples(track, movie)
    }

    @Test func negativeCompositionOffsetsParse() throws {
        var movie = SyntheticMovie()
        movie.compositionOffsets = [0, 1536, -512, 512, 0, 1536, -512, 512]
        movie.edits = nil
        try Self.expectSamples(try Self.parse(movie), movie)
    }

    @Test func sdtpFlagsAreAvailablePerSample() throws {
        var movie = SyntheticMovie()
        // I: depends on none, depended on; P: depends, depended on; B: depends, not depended on.
        movie.sdtp = [0x24, 0x14, 0x18, 0x18, 0x24, 0x14, 0x18, 0x18]
        let track = try Self.parse(movie)
        #expect(track.samples.dependency(of: 0) == SampleDependency(sdtpByte: 0x24))
        #expect(track.samples.dependency(of: 0)?.dependsOn == 2)
        #expect(track.samples.dependency(of: 2)?.isDisposable == true)
        #expect(track.samples.dependency(of: 1)?.isDisposable == false)
    }

    @Test func moovAfterMdatParsesThroughTheLocator() async throws {
        var movie = SyntheticMovie()
        movie.moovFirst = false
        let located = try MovieLocator().locate(in: MemoryFile(movie.bytes()))
        let track = try #require(located.movie.tracks.first)
        try Self.expectSamples(track, movie)
    }

    @Test(arguments: Orientation.all)
    func everyAxisAlignedMatrixGivesItsOrientation(_ orientation: Orientation) throws {
        var movie = SyntheticMovie()
        let (a, b, c, d) = orientation.linear
        movie.matrix = (Int32(a), Int32(b), Int32(c), Int32(d))
        let track = try Self.parse(movie)
        #expect(track.orientation == orientation)
        #expect(track.displaySize?.width == (orientation.swapsDimensions ? 48 : 64))
    }

    @Test func shearedMatrixIsReportedNotGuessed() throws {
        var movie = SyntheticMovie()
        movie.matrix = (1, 1, 0, 1)
        let track = try Self.parse(movie)
        #expect(track.orientation == nil)
    }

    @Test func scaledRotationIsStillARotation() throws {
        var movie = SyntheticMovie()
        movie.matrix = (0, 2, -2, 0)
        #expect(try Self.parse(movie).orientation == Orientation(rotation: 90, mirrored: false))
    }

    @Test func handWrittenSPSGivesTheSizeItCodes() throws {
        let track = try Self.parse(SyntheticMovie())
        let parameters = try #require(track.videoParameters)
        #expect(parameters.codedWidth == 64)
        #expect(parameters.codedHeight == 48)
        #expect(parameters.profile == 66)
        #expect(!parameters.isInterlaced)
    }
}
