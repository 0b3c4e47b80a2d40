import ByteSources
import MP4Box
import RangeFetch
import RangeFetchTestSupport
import Testing

/// The ends and several ranges from every kind of origin, over real sockets: the bytes are right, a first contact
/// costs one round trip, a whole resource sent for several ranges is never read past the ranges near its start,
/// and what an origin showed is remembered for the next source.
@Suite(.timeLimit(.minutes(1))) struct OriginKindTests {
    static let file = HTTPByteSourceTests.file    // 100,000 bytes

    /// A source of `/f.bin` from a server with `faults`, through a client of its own (nothing known of the origin).
    static func withSource(_ faults: TestHTTPServer.Faults = .init(),
                           _ body: (HTTPByteSource, TestHTTPServer) async throws -> Void) async throws {
        try await TestHTTPServer.serving(["/f.bin": file], faults: faults) { server in
            let client = RangeFetchClient()
            do {
                try await body(try HTTPByteSource(url: server.url("/f.bin"), options: HTTPByteSourceTests.fastOptions(),
                                                  client: client), server)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    /// The file's bytes in each of `ranges`.
    static func slices(_ ranges: [Range<UInt64>]) -> [[UInt8]] {
        ranges.map { Array(file[Int($0.lowerBound)..<Int($0.upperBound)]) }
    }

    static func expectEnds(_ ends: FileEnds, head: Int, tail: Int) {
        #expect(ends.head == Array(file.prefix(head)))
        #expect(ends.tail == Array(file.suffix(tail)))
        #expect(ends.tailOffset == UInt64(file.count - tail))
        #expect(ends.length == UInt64(file.count))
    }

    /// One small read, so the source knows the file's length (the origin's kind still unknown), and a clean log.
    static func learnLength(_ source: HTTPByteSource, _ server: TestHTTPServer) async throws {
        _ = try await source.read(0..<16)
        #expect(await source.knownLength == UInt64(file.count))
        server.resetLog()
    }

    /// Several ranges of a resource too large for a whole answer to be cheap (4 MiB, or of a length not known yet),
    /// from an origin whose kind is unknown: one request a range, side by side, never several ranges in one request
    /// (an object store answers that with the whole resource and bills what it sends: a storyboard cost 2.5 times its
    /// keyframes so). The origin's kind stays unknown.
    @Test(arguments: [true, false])
    func anUnknownOriginIsNotAskedSeveralRangesOfALargeResource(lengthKnown: Bool) async throws {
        let large = [UInt8](repeating: 7, count: 4 << 20)
        let ranges: [Range<UInt64>] = [100..<200, 1_000_000..<1_000_100, 2_000_000..<2_000_100, 3_000_000..<3_000_100]
        try await TestHTTPServer.serving(["/large.bin": large], faults: .init { $0.multipleRanges = .whole }) { server in
            let client = RangeFetchClient()
            let source = try HTTPByteSource(url: server.url("/large.bin"), options: HTTPByteSourceTests.fastOptions(), client: client)
            if lengthKnown {
                _ = try await source.read(0..<16)
                server.resetLog()
            }
            let bytes = try await source.read(ranges: ranges)
            #expect(bytes == ranges.map { _ in [UInt8](repeating: 7, count: 100) })
            #expect(Set(server.requests.map(\.range)) == Set(ranges.map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" }))
            #expect(server.bodyBytes == 400)
            #expect(client.rangeSupport.answer(for: source.url) == nil)
            try await client.shutdown()
        }
    }

    @Test(arguments: [TestHTTPServer.MultipleRangeAnswer.multipart, .whole, .refused, .firstRange])
    func aFirstContactAsksForTheEndsAsTwoRangesSideBySide(_ kind: TestHTTPServer.MultipleRangeAnswer) async throws {
        try await Self.withSource(.init { $0.multipleRanges = kind }) { source, server in
            Self.expectEnds(try await source.readEnds(head: 512, tail: 256), head: 512, tail: 256)
            #expect(Set(server.requests.map(\.range)) == ["bytes=0-511", "bytes=-256"])
            #expect(server.bodyBytes == 768)
            let stats = try #require(await source.statistics)
            #expect(stats.bytes == 768)
            #expect(stats.ignoredRangeResponses == 0)
        }
    }

    @Test(arguments: [TestHTTPServer.MultipleRangeAnswer.multipart, .whole, .refused, .firstRange])
    func severalRangesTeachTheOriginsKindAndTheEndsFollowIt(_ kind: TestHTTPServer.MultipleRangeAnswer) async throws {
        let ranges: [Range<UInt64>] = [100..<200, 1_000..<1_100, 2_000..<2_100]
        try await Self.withSource(.init { $0.multipleRanges = kind }) { source, server in
            try await Self.learnLength(source, server)
            let bytes = try await source.read(ranges: ranges)
            #expect(bytes == Self.slices(ranges))
            let learnt = source.client.rangeSupport.answer(for: source.url)
            #expect(learnt == (kind == .multipart ? .multipart : .oneRangeAtATime))
            server.resetLog()
            // A second source of the same client starts from what the first learnt.
            let next = try HTTPByteSource(url: source.url, options: source.options, client: source.client)
            Self.expectEnds(try await next.readEnds(head: 512, tail: 256), head: 512, tail: 256)
            let asked = Set(server.requests.map(\.range))
            #expect(asked == (kind == .multipart ? ["bytes=0-511,-256"] : ["bytes=0-511", "bytes=-256"]))
        }
    }

    @Test func aWholeResourceForSeveralRangesIsReadOnlyAsFarAsTheRangesNearItsStart() async throws {
        // The ranges near the start come from the whole answer; the far one (past the 64 KiB gap) alone.
        let ranges: [Range<UInt64>] = [100..<200, 1_000..<1_100, 2_000..<2_100, 90_000..<90_100]
        let faults = TestHTTPServer.Faults {
            $0.multipleRanges = .whole
            $0.bandwidth = 2_000_000    // slow enough that the client stops before the server has sent it all
        }
        try await Self.withSource(faults) { source, server in
            try await Self.learnLength(source, server)
            let bytes = try await source.read(ranges: ranges)
            #expect(bytes == Self.slices(ranges))
            #expect(server.requests.map(\.range) == ["bytes=100-199,1000-1099,2000-2099,90000-90099", "bytes=90000-90099"])
            let stats = try #require(await source.statistics)
            // The whole answer was read to byte 2,100 and a chunk (20 KB at this bandwidth) at most.
            #expect(stats.log[1].bytes >= 2_100 && stats.log[1].bytes < 2_100 + 20_000 + 1)
            #expect(stats.log[2].bytes == 100)
        }
    }

    @Test func severalRangesRefusedAreAskedForOneARequest() async throws {
        let ranges: [Range<UInt64>] = [100..<200, 1_000..<1_100, 90_000..<90_100]
        let faults = TestHTTPServer.Faults { $0.multipleRanges = .refused }
        try await Self.withSource(faults) { source, server in
            try await Self.learnLength(source, server)
            let bytes = try await source.read(ranges: ranges)
            #expect(bytes == Self.slices(ranges))
            #expect(server.requests.map(\.status) == [416, 206, 206, 206])
            #expect(Set(server.requests.dropFirst().map(\.range)) == ["bytes=100-199", "bytes=1000-1099", "bytes=90000-90099"])
        }
    }

    @Test(arguments: [TestHTTPServer.MultipleRangeAnswer.whole, .refused, .firstRange])
    func anOriginKnownToAnswerMultipartThatNoLongerDoesStillGivesTheEnds(_ kind: TestHTTPServer.MultipleRangeAnswer) async throws {
        try await Self.withSource(.init { $0.multipleRanges = kind }) { source, server in
            source.client.rangeSupport.remember(.multipart, for: source.url)
            Self.expectEnds(try await source.readEnds(head: 512, tail: 256), head: 512, tail: 256)
            #expect(server.requests.first?.range == "bytes=0-511,-256")
            #expect(source.client.rangeSupport.answer(for: source.url) == .oneRangeAtATime)
            // The head from the first answer (the whole body read only as far as it) and the tail asked for after.
            // Refused: the head and the tail (its offset known from the 416) side by side.
            let rest = server.requests.dropFirst().map(\.range)
            #expect(Set(rest) == (kind == .refused ? ["bytes=0-511", "bytes=99744-99999"] : ["bytes=99744-99999"]))
            #expect(rest.count == (kind == .refused ? 2 : 1))
        }
    }

    @Test func suffixRangesRefusedCostTheTailARequestOnceTheHeadShowsTheLength() async throws {
        try await Self.withSource(.init { $0.refusesSuffixRanges = true }) { source, server in
            Self.expectEnds(try await source.readEnds(head: 512, tail: 256), head: 512, tail: 256)
            #expect(server.requests.map(\.status).sorted() == [206, 206, 416])
            #expect(server.requests.last?.range == "bytes=99744-99999")
        }
    }

    @Test func aLengthNeverToldStillGivesBothEnds() async throws {
        try await Self.withSource(.init { $0.hidesLength = true }) { source, server in
            let ends = try await source.readEnds(head: 512, tail: 256)
            #expect(ends.head == Array(Self.file.prefix(512)))
            #expect(ends.tail == Array(Self.file.suffix(256)))
            #expect(ends.length == UInt64(Self.file.count))    // where the suffix ends
            #expect(server.requests.count == 2)
        }
    }

    @Test func aLengthNeverToldAndSuffixesRefusedGiveTheHeadAlone() async throws {
        try await Self.withSource(.init { $0.hidesLength = true; $0.refusesSuffixRanges = true }) { source, _ in
            let ends = try await source.readEnds(head: 512, tail: 256)
            #expect(ends.head == Array(Self.file.prefix(512)))
            #expect(ends.tail.isEmpty)
            #expect(ends.length == nil)
        }
    }

    @Test func anOriginThatIgnoresRangeSendsTheWholeResourceOnceAndItIsKept() async throws {
        try await Self.withSource(.init { $0.ignoresRange = true }) { source, server in
            Self.expectEnds(try await source.readEnds(head: 512, tail: 256), head: 512, tail: 256)
            // Later reads come from the body kept.
            #expect(try await source.read(50_000..<50_100) == Array(Self.file[50_000..<50_100]))
            #expect(server.requests.count == 2)
            #expect(await source.statistics?.ignoredRangeResponses == 2)
        }
    }
}
