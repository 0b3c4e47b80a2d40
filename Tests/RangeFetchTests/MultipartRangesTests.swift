@testable import RangeFetch
import Testing

/// Several ranges in one request (`ByteSource.read(ranges:)`): a multipart answer read part by part, and every
/// other answer a server may give, each range still coming back exactly.
@Suite struct MultipartRangesTests {
    static let file = MultipartEndsTests.file
    static let asked: [Range<UInt64>] = [100..<200, 1000..<1500, 3000..<3010]
    static func expected(_ ranges: [Range<UInt64>] = asked) -> [[UInt8]] {
        ranges.map { Array(file[Int($0.lowerBound)..<Int($0.upperBound)]) }
    }

    /// The bounds of each range a Range header asks for.
    static func bounds(_ header: String) -> [(Int, Int)] {
        header.dropFirst("bytes=".count).split(separator: ",").map { part in
            let numbers = part.split(separator: "-").compactMap { Int($0) }
            return (numbers[0], numbers[1])
        }
    }

    static func single(_ first: Int, _ last: Int) -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        (206, [("Content-Range", "bytes \(first)-\(last)/4096"), ("ETag", "\"v1\"")], Array(file[first...last]))
    }

    @Test func allRangesComeFromOneMultipartAnswer() async throws {
        let (source, transport) = try MultipartEndsTests.source { header in
            (206, MultipartEndsTests.multipartType,
             MultipartEndsTests.multipart(Self.bounds(header).map { ($0.0, $0.1, Array(Self.file[$0.0...$0.1])) }))
        }
        #expect(try await source.read(ranges: Self.asked) == Self.expected())
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=100-199,1000-1499,3000-3009"])
        #expect(await source.statistics?.requests == 1)
        #expect(await source.knownLength == 4096)
    }

    @Test func neighboursMergedIntoOnePartAreCut() async throws {
        // RFC 9110 lets a server merge ranges close together: the first two come as one part.
        let (source, _) = try MultipartEndsTests.source { _ in
            (206, MultipartEndsTests.multipartType,
             MultipartEndsTests.multipart([(100, 1499, Array(Self.file[100...1499])), (3000, 3009, Array(Self.file[3000...3009]))]))
        }
        #expect(try await source.read(ranges: Self.asked) == Self.expected())
        #expect(await source.statistics?.requests == 1)
    }

    @Test func theFirstRangeAloneCostsARequestForEachOther() async throws {
        let (source, transport) = try MultipartEndsTests.source { header in
            let first = Self.bounds(header)[0]
            return Self.single(first.0, first.1)
        }
        #expect(try await source.read(ranges: Self.asked) == Self.expected())
        let sent = transport.sent.withLock { $0.map(\.range) }
        #expect(sent.first == "bytes=100-199,1000-1499,3000-3009")
        #expect(Set(sent.dropFirst()) == ["bytes=1000-1499", "bytes=3000-3009"])
    }

    @Test func aWholeAnswerServesEveryRange() async throws {
        let (source, _) = try MultipartEndsTests.source { _ in (200, [("Content-Length", "4096"), ("ETag", "\"v1\"")], Self.file) }
        #expect(try await source.read(ranges: Self.asked) == Self.expected())
        #expect(await source.statistics?.requests == 1)
        #expect(await source.statistics?.ignoredRangeResponses == 1)
    }

    @Test func aWholeAnswerToSeveralRangesIsNotKeptEvenWhenShortEnough() async throws {
        // Only a single range answered with the whole resource shows that the origin ignores Range.
        let (source, transport) = try MultipartEndsTests.source { header in
            let ranges = Self.bounds(header)
            return ranges.count > 1 ? (200, [("Content-Length", "4096"), ("ETag", "\"v1\"")], Self.file) : Self.single(ranges[0].0, ranges[0].1)
        }
        #expect(try await source.read(ranges: Self.asked) == Self.expected())
        #expect(try await source.read(500..<600) == Array(Self.file[500..<600]))
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=100-199,1000-1499,3000-3009", "bytes=500-599"])
        // The origin answers one range at a time now: several ranges go one a request.
        #expect(source.client.rangeSupport.answer(for: source.url) == .oneRangeAtATime)
    }

    @Test func rangesPastTheEndAndEmptyOnesAreClampedAsOneReadIs() async throws {
        let (source, transport) = try MultipartEndsTests.source { header in
            let ranges = Self.bounds(header)
            return ranges.count == 1 ? Self.single(ranges[0].0, ranges[0].1)
                : (206, MultipartEndsTests.multipartType,
                   MultipartEndsTests.multipart(ranges.map { ($0.0, $0.1, Array(Self.file[$0.0...$0.1])) }))
        }
        _ = try await source.read(0..<16)  // learns the length
        let ranges: [Range<UInt64>] = [50..<50, 4000..<5000, 9000..<9100]
        #expect(try await source.read(ranges: ranges) == [[], Array(Self.file[4000...]), []])
        #expect(transport.sent.withLock { $0.last?.range } == "bytes=4000-4095")
    }

    @Test(arguments: [
        ("a part not asked for", [(100, 199), (2000, 2099)]),
        ("a part reaching past what was asked", [(100, 199), (1000, 3500)]),
    ])
    func partsThatWereNotAskedForAreRefused(_ what: String, _ parts: [(Int, Int)]) async throws {
        let (source, _) = try MultipartEndsTests.source { _ in
            (206, MultipartEndsTests.multipartType, MultipartEndsTests.multipart(parts.map { ($0.0, $0.1, Array(Self.file[$0.0...$0.1])) }))
        }
        let error = try await #require(throws: FetchError.self, "\(what)") { _ = try await source.read(ranges: Self.asked) }
        #expect(error.code == .contentRangeMismatch)
        #expect(error.range == 100..<3010)
    }

    @Test func manyRangesAreAskedForThirtyTwoARequest() async throws {
        let (source, transport) = try MultipartEndsTests.source { header in
            (206, MultipartEndsTests.multipartType,
             MultipartEndsTests.multipart(Self.bounds(header).map { ($0.0, $0.1, Array(Self.file[$0.0...$0.1])) }))
        }
        let ranges: [Range<UInt64>] = (0..<UInt64(70)).map { (start: UInt64) -> Range<UInt64> in start * 50..<start * 50 + 10 }
        #expect(try await source.read(ranges: ranges) == Self.expected(ranges))
        let counts = transport.sent.withLock { $0.map { Self.bounds($0.range ?? "").count } }
        #expect(counts.sorted() == [6, 32, 32])
    }
}
