import AsyncHTTPClient
import NIOCore
import NIOHTTP1
@testable import RangeFetch
import Testing

/// The head and the tail in one request: `multipart/byteranges` answers (RFC 9110, 14.6) read part by part, and
/// every other answer a server may give to several ranges.
@Suite struct MultipartEndsTests {
    static let file = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 13 + 5) }
    static let boundary = "b0und4ry"

    /// A multipart body of `parts` (first, last, bytes) of a resource of `length` bytes.
    static func multipart(_ parts: [(Int, Int, [UInt8])], length: Int = file.count, boundary: String = boundary,
                          closing: Bool = true) -> [UInt8] {
        var body: [UInt8] = []
        for (first, last, bytes) in parts {
            body += Array("\r\n--\(boundary)\r\nContent-Type: video/mp4\r\nContent-Range: bytes \(first)-\(last)/\(length)\r\n\r\n".utf8)
            body += bytes
        }
        if closing { body += Array("\r\n--\(boundary)--\r\n".utf8) }
        return body
    }

    static let multipartType = [("Content-Type", "multipart/byteranges; boundary=\(boundary)"), ("ETag", "\"v1\"")]

    @Test func boundaryComesFromTheContentType() {
        #expect(MultipartByteRanges.boundary(contentType: "multipart/byteranges; boundary=00000000001") == "00000000001")
        #expect(MultipartByteRanges.boundary(contentType: "Multipart/Byteranges;boundary=\"a b\"") == "a b")
        #expect(MultipartByteRanges.boundary(contentType: "multipart/mixed; boundary=x") == nil)
        #expect(MultipartByteRanges.boundary(contentType: "multipart/byteranges") == nil)
        #expect(MultipartByteRanges.boundary(contentType: "multipart/byteranges; boundary=" + String(repeating: "x", count: 71)) == nil)
    }

    @Test func partsAreTakenByTheirContentRangeEvenWhenTheDataHoldsTheBoundary() throws {
        let tricky = Array("\r\n--\(Self.boundary)--\r\n".utf8) + [0, 1, 2]
        let body = Self.multipart([(0, 99, Array(Self.file[0...99])), (4000, 4000 + tricky.count - 1, tricky)])
        let parsed = try MultipartByteRanges(body: body, boundary: Self.boundary, maximumParts: 2)
        #expect(parsed.parts.map(\.contentRange.range) == [0..<100, 4000..<(4000 + UInt64(tricky.count))])
        #expect(parsed.parts[0].bytes == Array(Self.file[0...99]))
        #expect(parsed.parts[1].bytes == tricky)
    }

    @Test(arguments: [
        ("no boundary", Array("just bytes".utf8)),
        ("part shorter than its range", multipart([(0, 99, Array(file[0...49]))])),
        ("no closing delimiter", multipart([(0, 9, Array(file[0...9]))], closing: false)),
        ("no content-range", Array("\r\n--\(boundary)\r\nContent-Type: video/mp4\r\n\r\nabc\r\n--\(boundary)--\r\n".utf8)),
        ("bad content-range", Array("\r\n--\(boundary)\r\nContent-Range: bytes 9-1/10\r\n\r\nabc\r\n--\(boundary)--\r\n".utf8)),
        ("headers never end", Array("\r\n--\(boundary)\r\nContent-Range: bytes 0-1/10".utf8)),
        ("three parts", multipart([(0, 0, [1]), (1, 1, [2]), (2, 2, [3])])),
    ])
    func malformedBodiesAreRefused(_ what: String, _ body: [UInt8]) {
        #expect(throws: MultipartByteRanges.Malformed.self, "\(what)") {
            _ = try MultipartByteRanges(body: body, boundary: Self.boundary, maximumParts: 2)
        }
    }

    /// A source without retries whose requests `answer` answers (by Range header), recording the headers sent; its
    /// origin is known to answer several ranges with `multipart/byteranges` unless `multipart` is nil.
    static func source(multipart: OriginRangeSupport.Answer? = .multipart,
                       _ answer: @escaping @Sendable (String) -> (status: Int, headers: [(String, String)], body: [UInt8]))
        throws -> (HTTPByteSource, HTTPTransportTests.RecordingTransport) {
        var options = HTTPFetchOptions()
        options.maximumRetries = 0
        let transport = HTTPTransportTests.RecordingTransport(answer: answer)
        let client = RangeFetchClient(transport: transport)
        let url = "http://example.test/f.bin"
        if let multipart { client.rangeSupport.remember(multipart, for: url) }
        return (try HTTPByteSource(url: url, options: options, client: client), transport)
    }

    @Test func bothEndsComeFromOneMultipartAnswer() async throws {
        let (source, transport) = try Self.source { _ in
            (206, Self.multipartType, Self.multipart([(0, 511, Array(Self.file[0...511])), (3840, 4095, Array(Self.file[3840...]))]))
        }
        let ends = try await source.readEnds(head: 512, tail: 256)
        #expect(ends.head == Array(Self.file[0...511]))
        #expect(ends.tail == Array(Self.file[3840...]))
        #expect(ends.tailOffset == 3840)
        #expect(ends.length == 4096)
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=0-511,-256"])
        #expect(await source.statistics?.requests == 1)
        // Later reads name the validator and the length is known.
        #expect(await source.knownLength == 4096)
        _ = try? await source.read(1000..<1010)
        #expect(transport.sent.withLock { $0.last?.ifRange } == "\"v1\"")
    }

    @Test func knownLengthNamesTheTailByItsOffsets() async throws {
        let (source, transport) = try Self.source { _ in
            (206, Self.multipartType, Self.multipart([(0, 511, Array(Self.file[0...511])), (3840, 4095, Array(Self.file[3840...]))]))
        }
        let known = try HTTPByteSource(url: source.url, options: source.options, client: source.client, knownLength: 4096)
        let ends = try await known.readEnds(head: 512, tail: 256)
        #expect(ends.tail == Array(Self.file[3840...]))
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=0-511,3840-4095"])
    }

    @Test func theFirstRangeAloneCostsTheTailASecondRequest() async throws {
        let (source, transport) = try Self.source { range in
            if range == "bytes=0-511,-256" {
                return (206, [("Content-Range", "bytes 0-511/4096"), ("ETag", "\"v1\"")], Array(Self.file[0...511]))
            }
            // bytes=3840-4095
            let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
            return (206, [("Content-Range", "bytes \(bounds[0])-\(bounds[1])/4096"), ("ETag", "\"v1\"")],
                    Array(Self.file[bounds[0]...bounds[1]]))
        }
        let ends = try await source.readEnds(head: 512, tail: 256)
        #expect(ends.head == Array(Self.file[0...511]))
        #expect(ends.tail == Array(Self.file[3840...]))
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=0-511,-256", "bytes=3840-4095"])
    }

    @Test func bothRangesMergedIntoOneRunningToTheEndAreTheWholeFile() async throws {
        let (source, _) = try Self.source { _ in
            (206, [("Content-Range", "bytes 0-4095/4096"), ("ETag", "\"v1\"")], Self.file)
        }
        let ends = try await source.readEnds(head: 3000, tail: 2000)
        #expect(ends.head + ends.tail == Self.file)
        #expect(await source.statistics?.requests == 1)
    }

    @Test func aWholeAnswerIsKeptAndNotCountedAsARangeIgnoredWhenTheEndsCoverTheFile() async throws {
        let (source, _) = try Self.source { _ in (200, [("Content-Length", "4096"), ("ETag", "\"v1\"")], Self.file) }
        let ends = try await source.readEnds(head: 3000, tail: 2000)
        #expect(ends.head == Self.file)
        #expect(ends.tail.isEmpty)
        #expect(await source.statistics?.ignoredRangeResponses == 0)
        // The whole file was kept: a read costs no request.
        #expect(try await source.read(100..<200) == Array(Self.file[100..<200]))
        #expect(await source.statistics?.requests == 1)
    }

    @Test(arguments: [
        ("a part not asked for", [(100, 199)]),
        ("a tail longer than asked", [(0, 511), (3000, 4095)]),
        ("no head", [(3840, 4095)]),
    ])
    func partsThatWereNotAskedForAreRefused(_ what: String, _ ranges: [(Int, Int)]) async throws {
        let (source, _) = try Self.source { _ in
            (206, Self.multipartType, Self.multipart(ranges.map { ($0.0, $0.1, Array(Self.file[$0.0...$0.1])) }))
        }
        let error = try await #require(throws: FetchError.self, "\(what)") { _ = try await source.readEnds(head: 512, tail: 256) }
        #expect(error.code == .contentRangeMismatch)
        #expect(error.range == 0..<512)
    }

    @Test func partsNamingTwoLengthsAreRefused() async throws {
        let (source, _) = try Self.source { _ in
            var body = Self.multipart([(0, 511, Array(Self.file[0...511]))], closing: false)
            body += Self.multipart([(3840, 4095, Array(Self.file[3840...]))], length: 5000)
            return (206, Self.multipartType, body)
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.readEnds(head: 512, tail: 256) }
        #expect(error.code == .contentRangeMismatch)
    }

    @Test func aMalformedBodyIsAnInvalidResponseNamingWhy() async throws {
        let (source, _) = try Self.source { _ in
            (206, Self.multipartType, Self.multipart([(0, 511, Array(Self.file[0...100]))]))
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.readEnds(head: 512, tail: 256) }
        #expect(error.code == .invalidResponse)
        #expect(error.description.contains("multipart"))
    }

    @Test func aBodyFarLongerThanTheRangesAskedForIsRefusedWithoutReadingItAll() async throws {
        let (source, _) = try Self.source { _ in
            (206, Self.multipartType, Self.multipart([(0, 511, Array(Self.file[0...511]))]) + [UInt8](repeating: 0, count: 64 * 1024))
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.readEnds(head: 512, tail: 256) }
        #expect(error.code == .bodyTooLong)
    }
}
