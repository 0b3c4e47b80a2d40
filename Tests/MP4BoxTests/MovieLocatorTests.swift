@testable import MP4Box
import MP4BoxTestSupport
import Testing

/// How many reads and bytes finding the index costs.
@Suite struct MovieLocatorTests {
    @Test func faststartFileCostsOneRead() async throws {
        let result = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("h264-faststart")))
        #expect(result.reads.count == 1)
        #expect(result.reads[0].range.lowerBound == 0)
        #expect(result.movie.moovOffset < 100)
    }

    @Test func moovAtTheEndInsideTheTailCostsTheFirstReadAlone() async throws {
        // The fixture (84 KB) is smaller than the default head and tail together: use ends that leave a gap.
        var options = MovieLocator.Options()
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        let source = MemoryFile(try Fixtures.bytes("h264-bframes"))
        let result = try MovieLocator(options: options).locate(in: source)
        let length = try #require(result.fileLength)
        #expect(Set(source.ranges) == [0..<16384, (length - 16384)..<length])
        #expect(result.reads.map(\.range) == [0..<16384, (length - 16384)..<length])
        let mdat = try #require(result.topLevelBoxes.first { $0.type == "mdat" })
        #expect(result.movie.moovOffset == mdat.endOffset)
        // What was read of mdat is held for samples (the index boxes are not).
        let held = result.heldBytes.spans.map(\.range)
        let ftyp = try #require(result.topLevelBoxes.first { $0.type == "ftyp" })
        #expect(held == [ftyp.endOffset!..<16384, (length - 16384)..<mdat.endOffset!])
        let whole = try Fixtures.bytes("h264-bframes")
        for span in result.heldBytes.spans {
            #expect(span.bytes == Array(whole[Int(span.offset)..<Int(span.range.upperBound)]))
        }
    }

    @Test func moovLongerThanTheTailReadsOnlyWhatTheTailLacks() async throws {
        var options = MovieLocator.Options()
        options.headSize = 1024
        options.tailSize = 512  // the moov is 1,554 bytes
        let source = MemoryFile(try Fixtures.bytes("h264-bframes"))
        let result = try MovieLocator(options: options).locate(in: source)
        let length = try #require(result.fileLength)
        let mdat = try #require(result.topLevelBoxes.first { $0.type == "mdat" })
        let moovStart = try #require(mdat.endOffset)
        #expect(source.ranges.count == 3)
        #expect(result.reads.last?.range == moovStart..<(length - 512))
        #expect(result.bytesRead == 1024 + Int(length - moovStart))
        let whole = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("h264-bframes")))
        #expect(try result.movie.fingerprint() == whole.movie.fingerprint())
    }

    @Test func moovAtTheEndCostsTwoReadsTheSecondFromTheEndOfMdat() async throws {
        // Without a tail in the first read: a head that ends inside mdat, then the rest from mdat's end.
        var options = MovieLocator.Options()
        options.headSize = 16 * 1024
        options.tailSize = 0
        let result = try MovieLocator(options: options).locate(in: MemoryFile(try Fixtures.bytes("h264-bframes")))
        #expect(result.reads.count == 2)
        let mdat = try #require(result.topLevelBoxes.first { $0.type == "mdat" })
        #expect(result.reads[1].range.lowerBound == mdat.endOffset)
        #expect(result.reads[1].range.upperBound == result.fileLength)
        #expect(result.movie.moovOffset == mdat.endOffset)
    }

    @Test func smallHeadStillFindsMoovAtTheEnd() async throws {
        var options = MovieLocator.Options()
        options.headSize = 64
        options.tailSize = 0
        let result = try MovieLocator(options: options).locate(in: MemoryFile(try Fixtures.bytes("h264-bframes")))
        #expect(result.reads.count == 2)
        #expect(result.bytesRead == 64 + Int(result.movie.moovHeader.size ?? 0))
    }

    @Test func largeTailIsWalkedByHeadersInsteadOfReadWhole() async throws {
        var options = MovieLocator.Options()
        options.headSize = 64
        options.tailSize = 0
        options.tailReadLimit = 16
        let result = try MovieLocator(options: options).locate(in: MemoryFile(try Fixtures.bytes("h264-bframes")))
        #expect(result.reads.count == 3)  // head, header at the end of mdat (with read-ahead), rest of moov
    }

    @Test func fragmentedFileReadsInitSegmentSidxAndEveryMoof() async throws {
        let result = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("fragmented")))
        #expect(result.movie.isFragmented)
        #expect(result.movie.fragmentCount == result.topLevelBoxes.filter { $0.type == "moof" }.count)
    }

    @Test func initSegmentOnlyWhenFragmentsAreNotWanted() async throws {
        var options = MovieLocator.Options()
        options.fragmentReading = .none
        options.headSize = 1024
        options.tailSize = 0
        let result = try MovieLocator(options: options).locate(in: MemoryFile(try Fixtures.bytes("fragmented")))
        #expect(result.reads.count == 1)
        #expect(result.movie.fragmentCount == 0)
    }

    @Test func readsAreRecordedAsTheSourceSawThem() async throws {
        let source = MemoryFile(try Fixtures.bytes("h264-bframes"))
        let result = try MovieLocator().locate(in: source)
        #expect(source.ranges == result.reads.map(\.range))
    }
}

/// The policy that reads only the video tracks of a large moov.
@Suite struct VideoTrackOnlyLocatorTests {
    static func options() -> MovieLocator.Options {
        var options = MovieLocator.Options()
        options.readsOnlyVideoTracks = true
        options.partialMoovThreshold = 0
        options.headSize = 1024
        options.tailSize = 0
        options.tailReadLimit = 16
        options.trackProbeSize = 512
        options.minimumWalkRead = 512  // the fixture's moov is 3.7 KB: reads of 16 KiB would take it whole
        return options
    }

    @Test func audioTrackIsSkippedAndTheVideoTrackIsExact() async throws {
        let file = MemoryFile(try Fixtures.bytes("audio-video"))
        let whole = try MovieLocator().locate(in: file)
        let partial = try MovieLocator(options: Self.options()).locate(in: file)
        #expect(partial.movie.tracks.map(\.kind) == [.video])
        let video = try #require(whole.movie.primaryVideoTrack)
        let partialVideo = try #require(partial.movie.primaryVideoTrack)
        #expect(partialVideo.samples.count == video.samples.count)
        for index in 0..<video.samples.count {
            #expect(try partialVideo.samples.sample(at: index) == video.samples.sample(at: index))
        }
        // Fewer bytes than the whole moov: the audio trak was never read.
        let audioTrak = try #require(whole.movie.tracks.last?.trackHeader.header)
        let moovSize = try #require(whole.movie.moovHeader.size)
        let moovBytesRead = partial.reads.filter { $0.range.lowerBound >= whole.movie.moovOffset }.reduce(0) { $0 + $1.byteCount }
        #expect(UInt64(moovBytesRead) < moovSize)
        #expect(audioTrak.offset > 0)
    }

    @Test func videoOnlyFilesGiveTheSameMovie() async throws {
        let file = MemoryFile(try Fixtures.bytes("h264-bframes"))
        let whole = try MovieLocator().locate(in: file)
        let partial = try MovieLocator(options: Self.options()).locate(in: file)
        #expect(try partial.movie.fingerprint() == whole.movie.fingerprint())
    }

    /// 200,000 empty traks, the length hidden: the walk stops at `maximumTrackCount` tracks, within the reads of
    /// the file's ends (it used to read on, 8 bytes a request, until the child limit).
    @Test func aMoovOfManyEmptyTracksStopsAtTheTrackLimit() throws {
        let source = MemoryFile(HostileMovies.manyEmptyTracks(count: 200_000), revealsLength: false)
        var options = MovieLocator.Options()
        options.readsOnlyVideoTracks = true
        let error = try #require(throws: MP4Error.self) { _ = try MovieLocator(options: options).locate(in: source) }
        #expect(error.code == .limitExceeded && error.detail.contains("1024 tracks"), "\(error)")
        #expect(source.ranges.count <= 3, "\(source.ranges)")
    }

    /// A moov of 150,000 empty free boxes (1.2 MB), the length hidden: each read of the walk asks for 16 KiB or twice
    /// the last, so the walk to the child limit costs a handful of reads (it cost one 8-byte read per box).
    @Test func aWalkOverManyTinyBoxesReadsAheadGrowing() throws {
        let file = HostileMovies.manyEmptyTracks(count: 150_000, type: "free")
        let source = MemoryFile(file, revealsLength: false)
        var options = MovieLocator.Options()
        options.readsOnlyVideoTracks = true
        let error = try #require(throws: MP4Error.self) { _ = try MovieLocator(options: options).locate(in: source) }
        #expect(error.code == .limitExceeded, "\(error)")
        let ranges = source.ranges
        #expect(ranges.count <= 10, "\(ranges)")
        // After the first read (the head), each read is at least 16 KiB and at least twice the one before.
        for (previous, read) in zip(ranges.dropFirst(), ranges.dropFirst(2)) {
            #expect(read.count >= 16 * 1024 && read.count >= 2 * previous.count, "\(ranges)")
        }
    }

    @Test func handlerIsFoundInATrackProbe() throws {
        let bytes = try Fixtures.bytes("audio-video")
        let movie = try MovieParser.parse(fileBytes: bytes)
        for track in movie.tracks {
            guard let trak = track.trackHeader.header.offset.checkedTrakStart(in: bytes) else { continue }
            let probe = Array(bytes[trak..<min(bytes.count, trak + 512)])
            #expect(MovieLocator.handler(inTrackProbe: probe, at: UInt64(trak)) == track.handlerType)
        }
    }
}

extension UInt64 {
    /// The offset of the trak box that holds the tkhd at this offset (tkhd is the trak's first child).
    func checkedTrakStart(in bytes: [UInt8]) -> Int? {
        let start = Int(self) - 8
        guard start >= 0, start + 8 <= bytes.count, Array(bytes[start + 4..<start + 8]) == Array("trak".utf8) else { return nil }
        return start
    }
}

/// Fragmented files with a segment index: every moof read in one concurrent batch.
@Suite struct SegmentIndexLocatorTests {
    @Test func moofsTheSidxPointsAtAreReadTogether() async throws {
        var options = MovieLocator.Options()
        options.headSize = 2048  // ftyp, moov and sidx; no fragment
        options.tailSize = 0
        let file = MemoryFile(try Fixtures.bytes("fragmented"))
        let result = try MovieLocator(options: options).locate(in: file)
        let whole = try MovieLocator().locate(in: file)
        #expect(try result.movie.fingerprint() == whole.movie.fingerprint())
        let moofs = whole.topLevelBoxes.filter { $0.type == "moof" }.map(\.offset)
        #expect(moofs.count == 7)
        // The head, one probe per fragment starting at its moof (but the first: the head holds that moof whole and
        // the header after it), then the mfra after the last fragment.
        let firstMoof = try #require(whole.topLevelBoxes.first { $0.type == "moof" })
        #expect(try firstMoof.offset + #require(firstMoof.size) + 16 <= 2048)
        #expect(result.reads.count == 1 + (moofs.count - 1) + 1)
        #expect(Array(result.reads.dropFirst().prefix(moofs.count - 1).map(\.range.lowerBound)) == Array(moofs.dropFirst()))
        let mfra = try #require(whole.topLevelBoxes.first { $0.type == "mfra" })
        #expect(result.reads.last?.range.lowerBound == mfra.offset)
        #expect(!result.movie.fragmentRandomAccess.isEmpty)
    }
}
