import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import RangeFetch
import Synchronization
import Testing

/// A caller's `HTTPTransport` sees every request as it would go out, and its answers pass the same checks as the
/// network's.
@Suite struct HTTPTransportTests {
    static let file = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }

    /// Answers each request with `answer(range header)` and records the Range and If-Range headers it was sent.
    final class RecordingTransport: HTTPTransport {
        let sent = Mutex<[(range: String?, ifRange: String?)]>([])
        let answer: @Sendable (String) -> (status: Int, headers: [(String, String)], body: [UInt8])

        init(answer: @escaping @Sendable (String) -> (status: Int, headers: [(String, String)], body: [UInt8])) {
            self.answer = answer
        }

        func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
            let range = request.headers.first(name: "Range")
            sent.withLock { $0.append((range, request.headers.first(name: "If-Range"))) }
            let (status, headers, body) = answer(range ?? "")
            return HTTPClientResponse(status: HTTPResponseStatus(statusCode: status), headers: HTTPHeaders(headers),
                                      body: .bytes(ByteBuffer(bytes: body)))
        }
    }

    /// An honest server of `file`: `bytes=a-b` gets 206 with those bytes and ETag "v1".
    static func honest(_ range: String) -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
        let first = bounds[0]
        let last = min(bounds[1], file.count - 1)
        return (206, [("Content-Range", "bytes \(first)-\(last)/\(file.count)"), ("ETag", "\"v1\"")],
                Array(file[first...last]))
    }

    @Test func requestsGoThroughTheTransportWithRangeAndIfRange() async throws {
        let transport = RecordingTransport(answer: Self.honest)
        let client = RangeFetchClient(transport: transport)
        let source = try HTTPByteSource(url: "http://example.test/f.bin", client: client)
        #expect(try await source.read(0..<100) == Array(Self.file[0..<100]))
        #expect(try await source.read(4000..<5000) == Array(Self.file[4000...]))
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.range) == ["bytes=0-99", "bytes=4000-4095"])
        #expect(sent.map(\.ifRange) == [nil, "\"v1\""])
        #expect(await source.knownLength == 4096)
        // It opened no connection of its own: the count is unknown, not 0.
        #expect(client.connectionsOpened == nil)
    }

    @Test func aTransportsWrongContentRangeIsRefusedAsTheNetworksWouldBe() async throws {
        let source = try Self.source { _ in (206, [("Content-Range", "bytes 1-100/4096")], Array(Self.file[1...100])) }
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .contentRangeMismatch)
        #expect(error.range == 0..<100)
    }

    /// A source without retries (a retryable failure shows at once) whose requests `answer` answers.
    static func source(_ answer: @escaping @Sendable (String) -> (status: Int, headers: [(String, String)], body: [UInt8]))
        throws -> HTTPByteSource {
        var options = HTTPFetchOptions()
        options.maximumRetries = 0
        return try HTTPByteSource(url: "http://example.test/f.bin", options: options,
                                  client: RangeFetchClient(transport: RecordingTransport(answer: answer)))
    }

    @Test func aWholeBodyWhoseLengthDiffersFromTheKnownOneIsAChange() async throws {
        // Found by HTTPFuzzer: the length of a 200 was not compared with the one learnt, and its bytes were served.
        let source = try Self.source { range in
            if range == "bytes=0-99" { return Self.honest(range) }
            return (200, [("ETag", "\"v1\""), ("Content-Length", "5000")], [UInt8](repeating: 1, count: 5000))
        }
        _ = try await source.read(0..<100)
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(200..<300) }
        #expect(error.code == .resourceChanged)
    }

    @Test func aSuffixAnsweredWithAWholeBodyShorterThanItsContentLengthIsTruncated() async throws {
        // Found by HTTPFuzzer: the source then reported a length of 4096 and a suffix ending at 4000.
        let source = try Self.source { _ in
            (200, [("ETag", "\"v1\""), ("Content-Length", "4096")], Array(Self.file[0..<4000]))
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.readSuffix(100) }
        #expect(error.code == .truncatedBody)
    }

    @Test func aWholeBodyLongerThanItsContentLengthIsRefused() async throws {
        // Found by HTTPFuzzer (Fuzz/findings/http/whole-body-longer-than-content-length.bin): the body's bytes were
        // kept as the resource while its length was the announced one, so a suffix ended past that length.
        let source = try Self.source { _ in
            (200, [("ETag", "\"v1\""), ("Content-Length", "4000")], Self.file)
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .bodyTooLong)
        let suffix = try await #require(throws: FetchError.self) { _ = try await source.readSuffix(100) }
        #expect(suffix.code == .bodyTooLong)
    }

    @Test func aRangeAnsweredWithAWholeBodyThatEndsInsideItIsTruncated() async throws {
        let source = try Self.source { _ in
            (200, [("ETag", "\"v1\""), ("Content-Length", "4096")], Array(Self.file[0..<50]))
        }
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .truncatedBody)
    }

    @Test func aWholeBodyWithoutContentLengthServesTheRangeItHolds() async throws {
        // No length announced: the body's end is the file's end.
        let source = try Self.source { _ in (200, [("ETag", "\"v1\"")], Array(Self.file[0..<50])) }
        #expect(try await source.read(0..<100) == Array(Self.file[0..<50]))
    }

    @Test func aSuffixUnderTheRestartPolicyIsTheNewVersionsEnd() async throws {
        // Found by HTTPFuzzer: the file shrank during the suffix read, and the old offset came back with no bytes.
        let shrunk = [UInt8](repeating: 9, count: 10)
        let transport = RecordingTransport { range in
            switch range {
            case "bytes=0-99": return Self.honest(range)
            case "bytes=0-9": return (206, [("Content-Range", "bytes 0-9/10"), ("ETag", "\"v2\"")], shrunk)
            default: return (200, [("ETag", "\"v2\""), ("Content-Length", "10")], shrunk)
            }
        }
        var options = HTTPFetchOptions()
        options.changePolicy = .restart
        let source = try HTTPByteSource(url: "http://example.test/f.bin", options: options,
                                        client: RangeFetchClient(transport: transport))
        _ = try await source.read(0..<100)
        let (bytes, offset) = try await source.readSuffix(100)
        #expect(bytes == shrunk)
        #expect(offset == 0)
        #expect(await source.knownLength == 10)
        // The 200 to the suffix is the whole new version, kept: no third request for its end.
        #expect(transport.sent.withLock { $0.map(\.range) } == ["bytes=0-99", "bytes=3996-4095"])
    }

    @Test func aSuffixAnswered416WithALengthIsRefused() async throws {
        // Found by HTTPFuzzer: only an empty resource has no last bytes; the source returned none at offset 107.
        let source = try Self.source { _ in (416, [("Content-Range", "bytes */107")], []) }
        let error = try await #require(throws: FetchError.self) { _ = try await source.readSuffix(100) }
        #expect(error.code == .rangeNotSatisfiable)
        let empty = try Self.source { _ in (416, [("Content-Range", "bytes */0")], []) }
        let (bytes, offset) = try await empty.readSuffix(100)
        #expect(bytes.isEmpty && offset == 0)
    }

    @Test func a416WhoseLengthDiffersFromTheKnownOneIsAChange() async throws {
        let source = try Self.source { range in
            range == "bytes=0-99" ? Self.honest(range) : (416, [("Content-Range", "bytes */50")], [])
        }
        _ = try await source.read(0..<100)
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(100..<200) }
        #expect(error.code == .resourceChanged)
    }
}
