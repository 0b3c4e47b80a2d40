import ByteSources
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// The same movie whatever the read boundaries, failures or missing length.
@Suite struct ByteSourceRobustnessTests {
    @Test(arguments: Fixtures.names)
    func splitReadsGiveTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let reference = try await MovieLocator().locate(in: file).movie.fingerprint()
        for pieceSize: UInt64 in [1, 7, 4096] {
            let movie = try await MovieLocator().locate(in: SplittingByteSource(file, pieceSize: pieceSize)).movie
            #expect(try movie.fingerprint() == reference, "\(name) split into \(pieceSize)-byte pieces")
        }
    }

    @Test(arguments: Fixtures.names)
    func everyHeadSizeAcrossBoxBoundariesGivesTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let first = try await MovieLocator().locate(in: file)
        let reference = try first.movie.fingerprint()
        // Head sizes that end just before, at and after every top-level box boundary, and inside every header.
        var sizes = Set<Int>([1, 8, 9, 16, 31, 32, 33])
        for header in first.topLevelBoxes {
            for delta in -9...9 { sizes.insert(Int(header.offset) + delta) }
            if let end = header.endOffset { for delta in -1...1 { sizes.insert(Int(end) + delta) } }
        }
        for size in sizes.sorted() where size > 0 {
            var options = MovieLocator.Options()
            options.headSize = size
            let movie = try await MovieLocator(options: options).locate(in: file).movie
            #expect(try movie.fingerprint() == reference, "\(name) head size \(size)")
        }
    }

    @Test(arguments: Fixtures.names)
    func hiddenLengthGivesTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let reference = try await MovieLocator().locate(in: file).movie.fingerprint()
        for headSize in [64 * 1024, 1000, 100] {
            var options = MovieLocator.Options()
            options.headSize = headSize
            let movie = try await MovieLocator(options: options).locate(in: LengthHidingByteSource(file)).movie
            #expect(try movie.fingerprint() == reference, "\(name) without length, head \(headSize)")
        }
    }

    @Test(arguments: Fixtures.names)
    func failedReadThrowsItsErrorThenARetrySucceeds(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        var options = MovieLocator.Options()
        options.headSize = 4096  // several reads per fixture
        let clean = try await MovieLocator(options: options).locate(in: file)
        let reference = try clean.movie.fingerprint()
        for failing in 1...clean.reads.count {
            let source = FailingByteSource(file, failingRead: failing)
            await #expect(throws: InjectedFault(readNumber: failing)) {
                _ = try await MovieLocator(options: options).locate(in: source)
            }
            let retried = try await MovieLocator(options: options).locate(in: source)
            #expect(try retried.movie.fingerprint() == reference, "\(name) retry after failing read \(failing)")
        }
    }

    @Test(arguments: Fixtures.names)
    func inMemoryParseMatchesTheLocator(_ name: String) async throws {
        let bytes = try Fixtures.bytes(name)
        let located = try await MovieLocator().locate(in: MemoryByteSource(bytes)).movie
        let parsed = try MovieParser.parse(fileBytes: bytes)
        #expect(try parsed.fingerprint() == located.fingerprint())
    }

    @Test func aSourceThatGivesFewerRangesThanAskedIsAReadFailure() async throws {
        // The subsegments of `fragmented` are read as a batch of probes; this source drops the batch's last answer.
        var options = MovieLocator.Options()
        options.headSize = 1024
        options.tailSize = 0
        let source = DroppingLastRangeSource(base: MemoryByteSource(try Fixtures.bytes("fragmented")))
        let error = await #expect(throws: MP4Error.self) { try await MovieLocator(options: options).locate(in: source) }
        #expect(error?.code == .readFailed)
        #expect(await source.batches > 0)
    }

    @Test(arguments: ["h264-bframes", "fragmented", "h264-faststart"])
    func aSourceThatGivesMoreThanAskedIsCutToWhatWasAsked(_ name: String) async throws {
        var options = MovieLocator.Options()
        options.headSize = 1024
        options.tailSize = 512
        let file = try Fixtures.bytes(name)
        let honest = try await MovieLocator(options: options).locate(in: MemoryByteSource(file))
        let generous = try await MovieLocator(options: options).locate(in: PaddingSource(base: MemoryByteSource(file)))
        #expect(try generous.movie.fingerprint() == honest.movie.fingerprint())
        #expect(generous.reads == honest.reads)
    }
}

/// Gives every range asked for followed by 100 bytes of 0xFF (the ends as a well-behaved source gives them).
private struct PaddingSource: ByteSource {
    let base: MemoryByteSource

    var knownLength: UInt64? { UInt64(base.bytes.count) }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        try await base.read(range) + [UInt8](repeating: 0xFF, count: 100)
    }

    func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        try await base.readEnds(head: head, tail: tail)
    }
}

/// Answers a batch of ranges without its last one.
private actor DroppingLastRangeSource: ByteSource {
    let base: MemoryByteSource
    private(set) var batches = 0

    init(base: MemoryByteSource) {
        self.base = base
    }

    var knownLength: UInt64? { UInt64(base.bytes.count) }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        try await base.read(range)
    }

    func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        batches += 1
        var answers: [[UInt8]] = []
        for range in ranges.dropLast() { answers.append(try await base.read(range)) }
        return answers
    }
}
