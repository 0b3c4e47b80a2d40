@testable import MP4Box
import MP4BoxTestSupport
import Testing

/// The locator as a reader that does no I/O: what it asks for, driven here from memory without a byte source, and
/// what it does with answers that do not fit what it asked.
@Suite struct IndexReaderTests {
    /// Answers `request` from `file` as a source that knows its length does: ranges clamped to the end, the ends as
    /// one head when the file is no longer than head and tail together.
    static func answer(_ request: ByteRequest, from file: [UInt8]) -> ByteAnswer {
        let length = UInt64(file.count)
        func bytes(_ range: Range<UInt64>) -> [UInt8] {
            Array(file[Int(min(range.lowerBound, length))..<Int(min(max(range.upperBound, range.lowerBound), length))])
        }
        switch request {
        case .ends(let head, let tail):
            if length <= head + tail { return .ends(head: file, tail: [], tailOffset: length, length: length) }
            return .ends(head: bytes(0..<head), tail: bytes((length - tail)..<length), tailOffset: length - tail, length: length)
        case .range(let range):
            return .bytes([bytes(range)])
        case .ranges(let ranges):
            return .bytes(ranges.map(bytes))
        }
    }

    /// Runs `reader` over `file` from memory, and lists what it asked for.
    static func drive<Reader: IndexReader>(_ reader: Reader, over file: [UInt8]) throws -> (output: Reader.Output, requests: [ByteRequest]) {
        var reader = reader
        var requests: [ByteRequest] = []
        while true {
            switch try reader.next() {
            case .done(let output):
                return (output, requests)
            case .read(let request):
                requests.append(request)
                #expect(requests.count < 1000, "a reader that never finishes")
                reader.receive(answer(request, from: file), for: request, knownLength: UInt64(file.count))
            }
        }
    }

    /// The offsets and types of the top-level boxes, by their headers alone (the oracle for where boxes are).
    static func topLevelBoxes(_ file: [UInt8]) -> [(offset: UInt64, type: String, size: UInt64)] {
        var boxes: [(UInt64, String, UInt64)] = []
        var offset = 0
        while offset + 8 <= file.count {
            var size = file[offset..<offset + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if size == 1 { size = file[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            if size == 0 { size = UInt64(file.count - offset) }
            boxes.append((UInt64(offset), String(decoding: file[offset + 4..<offset + 8], as: UTF8.self), size))
            offset += Int(size)
        }
        return boxes
    }

    @Test func aMovieAtTheEndIsLocatedFromTheEndsAndOneRangeWithoutASource() throws {
        let file = try Fixtures.bytes("h264-bframes")
        let length = UInt64(file.count)
        let moov = try #require(Self.topLevelBoxes(file).first { $0.type == "moov" })
        #expect(moov.offset + moov.size == length)
        #expect(moov.size > 512)
        var options = MovieLocator.Options()
        options.headSize = 1024
        options.tailSize = 512
        let (located, requests) = try Self.drive(MovieLocator(options: options, knownLength: length), over: file)
        // The ends, then what of moov the tail lacks: nothing before moov, nothing the tail holds.
        #expect(requests == [.ends(head: 1024, tail: 512), .range(moov.offset..<(length - 512))])
        #expect(try ByteSourceRobustnessTests.fingerprint(located.movie)
                == ByteSourceRobustnessTests.fingerprint(MovieParser.parse(fileBytes: file)))
    }

    @Test func aFragmentOnDemandIsOneBatchOfProbesAtItsMoof() throws {
        let file = try Fixtures.bytes("fragmented")
        let moofs = Self.topLevelBoxes(file).filter { $0.type == "moof" }.map(\.offset)
        #expect(moofs.count > 1)
        let locator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand), knownLength: UInt64(file.count))
        let (located, _) = try Self.drive(locator, over: file)
        let index = try #require(located.movie.fragmentIndex)
        let last = index.subsegments.count - 1
        let (more, requests) = try Self.drive(locator.fragmentReader([last], of: located.movie, knownLength: UInt64(file.count)),
                                              over: file)
        guard case .ranges(let probes) = try #require(requests.first) else {
            Issue.record("asked for \(requests) instead of a batch of probes")
            return
        }
        #expect(requests.count == 1)
        #expect(probes.map(\.lowerBound) == [moofs[last]])
        #expect(more.movie.readSubsegments == [last])
        #expect(more.topLevelBoxes.map(\.offset) == [moofs[last]])
    }

    @Test func anAnswerOfAnotherShapeIsATypedError() throws {
        let file = try Fixtures.bytes("h264-bframes")
        var locator = MovieLocator(knownLength: UInt64(file.count))
        guard case .read(let request) = try locator.next() else {
            Issue.record("located without a read")
            return
        }
        locator.receive(.bytes([[]]), for: request, knownLength: UInt64(file.count))
        let error = #expect(throws: MP4Error.self) { try locator.next() }
        #expect(error?.code == .readFailed)
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
        #expect(try ByteSourceRobustnessTests.fingerprint(generous.movie) == ByteSourceRobustnessTests.fingerprint(honest.movie))
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
