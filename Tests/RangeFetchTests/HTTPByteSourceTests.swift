import ByteSources
import Foundation
import HTTPTypes
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing

/// HTTPByteSource against the fault-injecting test server: bytes, requests and typed errors.
@Suite(.timeLimit(.minutes(1))) struct HTTPByteSourceTests {
    static let file: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    static func fastOptions(_ change: (inout HTTPFetchOptions) -> Void = { _ in }) -> HTTPFetchOptions {
        var options = HTTPFetchOptions()
        options.retryBackoff = .milliseconds(10)
        // The client's wait for each read, for tests that are not about timeouts: a minute (the suite's limit). 10 s
        // timed out once beside a busy loop, a whole body read 30,591 bytes in, at the busiest minute of the parallel run.
        options.readTimeout = .seconds(60)
        change(&options)
        return options
    }

    /// A source reading `path` from a test server of `file` with `faults`; the server stops when `body` ends.
    static func withSource(_ path: String = "/f.bin", faults: TestHTTPServer.Faults = .init(),
                           options: HTTPFetchOptions = HTTPByteSourceTests.fastOptions(),
                           _ body: (HTTPByteSource, TestHTTPServer) async throws -> Void) async throws {
        try await TestHTTPServer.serving(["/f.bin": file], faults: faults) { server in
            try await body(try HTTPByteSource(url: server.url(path), options: options), server)
        }
    }

    @Test func rangeReadsReturnExactlyTheBytesAndLearnTheLengthWithoutHEAD() async throws {
        try await Self.withSource { source, server in
            #expect(await source.knownLength == nil)
            #expect(try await source.read(10..<20) == Array(Self.file[10..<20]))
            #expect(await source.knownLength == UInt64(Self.file.count))
            #expect(try await source.read(99_990..<200_000) == Array(Self.file[99_990...]))
            #expect(try await source.read(100_000..<100_010) == [])
            let requests = server.requests
            #expect(requests.allSatisfy { $0.method == "GET" })
            #expect(requests.map(\.range) == ["bytes=10-19", "bytes=99990-99999"])
            #expect(requests[1].ifRange == "\"v1-100000\"")
            let stats = try #require(await source.statistics)
            #expect(stats.requests == 2)
            #expect(stats.bytes == 20)
            #expect(stats.bytes == UInt64(server.bodyBytes))    // the server's own count
            #expect(stats.roundTrips == 2)
            #expect(stats.log.map(\.status) == [206, 206])
        }
    }

    @Test func suffixRangeReadsTheTailWithoutKnowingTheLength() async throws {
        try await Self.withSource { source, server in
            let (bytes, offset) = try await source.readSuffix(1000)
            #expect(offset == 99_000)
            #expect(bytes == Array(Self.file[99_000...]))
            #expect(server.requests.map(\.range) == ["bytes=-1000"])
            #expect(await source.knownLength == 100_000)
        }
    }

    @Test func aWholeBodyFromAServerIgnoringRangeIsReadOnceKeptAndCountedAsTheServerSentIt() async throws {
        try await Self.withSource(faults: .init { $0.ignoresRange = true }) { source, server in
            #expect(try await source.read(0..<5_000) == Array(Self.file[0..<5_000]))
            #expect(try await source.read(70_000..<80_000) == Array(Self.file[70_000..<80_000]))
            let tail = try await source.readSuffix(1_000)
            #expect(tail.bytes == Array(Self.file.suffix(1_000)) && tail.offset == 99_000)
            let stats = try #require(await source.statistics)
            #expect(stats.ignoredRangeResponses == 1)
            #expect(server.requests.count == 1)
            #expect(stats.requests == 1)
            #expect(stats.bytes == UInt64(server.bodyBytes))    // every byte the server sent, counted
            #expect(await source.knownLength == 100_000)
        }
    }

    @Test func aBodyTooLongToKeepIsReadOnlyAsFarAsNeeded() async throws {
        let faults = TestHTTPServer.Faults {
            $0.ignoresRange = true
            $0.bandwidth = 2_000_000  // so the client can stop before the server has sent everything
        }
        try await Self.withSource(faults: faults, options: Self.fastOptions { $0.maximumKeptBodyBytes = 10_000 }) { source, _ in
            #expect(try await source.read(0..<5_000) == Array(Self.file[0..<5_000]))
            let stats = try #require(await source.statistics)
            #expect(stats.ignoredRangeResponses == 1)
            #expect(stats.bytes < 60_000, "read \(stats.bytes) bytes of a 100000-byte body for 5000")
            #expect(await source.knownLength == 100_000)
        }
    }

    @Test func theByteBudgetStopsABodyMidTransfer() async throws {
        let large: [UInt8] = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let faults = TestHTTPServer.Faults {
            $0.ignoresRange = true
            $0.bandwidth = 10_000_000  // slow enough that the server is still sending when the budget is reached
        }
        try await TestHTTPServer.serving(["/large.bin": large], faults: faults) { server in
            let source = try HTTPByteSource(url: server.url("/large.bin"), options: Self.fastOptions { $0.maximumBytes = 1_000_000 })
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(2_500_000..<2_600_000) }
            #expect(error.code == .budgetExceeded)
            #expect(error.detail.contains("byte budget of 1000000 bytes reached"), "\(error)")
            let stats = try #require(await source.statistics)
            #expect(stats.bytes > 1_000_000 && stats.bytes < 1_100_000, "\(stats.bytes) bytes received")
        }
    }

    @Test func changedETagIsAResourceChangedError() async throws {
        try await Self.withSource(faults: .init { $0.changeETagAfterRequests = 1 }) { source, server in
            _ = try await source.read(0..<10)
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(10..<20) }
            #expect(error.code == .resourceChanged)
            #expect(error.range == 10..<20)
            #expect(error.url == server.url("/f.bin"))
            // If-Range made the server send the whole new version (200): the client stopped reading it.
            #expect(server.requests.last?.status == 200)
        }
    }

    @Test func restartPolicyAdoptsTheNewVersion() async throws {
        try await Self.withSource(faults: .init { $0.changeETagAfterRequests = 1 },
                                  options: Self.fastOptions { $0.changePolicy = .restart }) { source, _ in
            _ = try await source.read(0..<10)
            #expect(try await source.read(10..<20) == Array(Self.file[10..<20]))
            #expect(await source.validator?.etag == "\"v2-100000\"")
        }
    }

    @Test func resetAfterSomeBodyBytesIsRetriedAndRecovers() async throws {
        let faults = TestHTTPServer.Faults {
            $0.resetAfterBodyBytes = 1000
            $0.resetRequests = 1
        }
        try await Self.withSource(faults: faults) { source, server in
            #expect(try await source.read(0..<50_000) == Array(Self.file[0..<50_000]))
            let stats = try #require(await source.statistics)
            #expect(stats.retries == 1)
            #expect(stats.requests == 2)
            #expect(server.requests.count == 2)
        }
    }

    @Test func persistentResetsEndInATypedError() async throws {
        try await Self.withSource(faults: .init { $0.resetAfterBodyBytes = 1000 },
                                  options: Self.fastOptions { $0.maximumRetries = 2 }) { source, server in
            await #expect(throws: FetchError.self) { _ = try await source.read(0..<50_000) }
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<50_000) }
            #expect([.truncatedBody, .connectionReset].contains(error.code), "\(error)")
            #expect(server.requests.count == 6)  // 1 + 2 retries, twice
        }
    }

    @Test func truncatedBodyIsATypedErrorAfterRetries() async throws {
        try await Self.withSource(faults: .init { $0.truncatesBody = true },
                                  options: Self.fastOptions { $0.maximumRetries = 1 }) { source, server in
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<10_000) }
            #expect([.truncatedBody, .connectionReset].contains(error.code), "\(error)")
            #expect(error.range == 0..<10_000)
            #expect(server.requests.count == 2)
        }
    }

    @Test func wrongContentRangeIsDetected() async throws {
        try await Self.withSource(faults: .init { $0.wrongContentRange = true }) { source, server in
            await #expect(throws: FetchError(.contentRangeMismatch, url: server.url("/f.bin"), range: 100..<200, status: 206,
                                             "content-range bytes 101-199/100000 does not match the request")) {
                _ = try await source.read(100..<200)
            }
        }
    }

    @Test func bodyLongerThanAnnouncedIsDetected() async throws {
        try await Self.withSource(faults: .init { $0.bodyLongerThanAnnounced = true }) { source, _ in
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<1000) }
            #expect(error.code == .bodyTooLong)
        }
    }

    @Test func serviceUnavailableIsRetriedThenSucceeds() async throws {
        try await Self.withSource(faults: .init { $0.serviceUnavailableRequests = 2 }) { source, server in
            let bytes = try await source.read(0..<100)
            #expect(bytes == Array(Self.file[0..<100]))
            #expect(server.requests.map(\.status) == [503, 503, 206])
            #expect(await source.statistics?.retries == 2)
        }
    }

    @Test(arguments: [(404, FetchError.Code.notFound), (403, .forbidden), (401, .forbidden), (500, .serverError), (400, .clientError)])
    func statusCodesGiveTypedErrors(_ status: Int, _ code: FetchError.Code) async throws {
        try await Self.withSource(faults: .init { $0.forcedStatus = status }) { source, server in
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
            #expect(error.code == code)
            #expect(error.status == status)
            #expect(error.description.contains("bytes 0-99"))
            #expect(server.requests.count == 1)  // none of these is retried
        }
    }

    @Test func missingFileIsNotFound() async throws {
        try await Self.withSource("/missing.mp4") { source, _ in
            await #expect(throws: FetchError.self) { _ = try await source.read(0..<10) }
        }
    }

    @Test func slowFirstByteHitsTheDeadline() async throws {
        let options = Self.fastOptions {
            $0.deadline = .milliseconds(300)
            $0.maximumRetries = 0
        }
        try await Self.withSource(faults: .init { $0.firstByteDelay = 20 }, options: options) { source, _ in
            let clock = ContinuousClock()
            let start = clock.now
            let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
            #expect([.timedOut, .budgetExceeded].contains(error.code), "\(error)")
            // The server would answer after 20 s: the deadline ended the wait before that first byte. The bound is the
            // first byte, not the deadline: a fresh clone's CI run with a busy loop and a second full test run on the
            // same 2 cores took 12.0 s.
            #expect(clock.now - start < .seconds(19))
        }
    }

    @Test func requestAndByteBudgetsStopTheWork() async throws {
        try await Self.withSource(options: Self.fastOptions { $0.maximumRequests = 2 }) { limited, server in
            _ = try await limited.read(0..<10)
            _ = try await limited.read(10..<20)
            await #expect(throws: FetchError.self) { _ = try await limited.read(20..<30) }
            let capped = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions { $0.maximumBytes = 1000 })
            let error = try await #require(throws: FetchError.self) { _ = try await capped.read(0..<5000) }
            #expect(error.code == .budgetExceeded)
        }
    }

    @Test func callerHeadersReachTheServer() async throws {
        let options = Self.fastOptions { $0.headers = [.authorization: "Bearer abc", .cookie: "session=1"] }
        try await Self.withSource(options: options) { source, server in
            _ = try await source.read(0..<10)
            #expect(server.requests.first?.headers["authorization"] == "Bearer abc")
            #expect(server.requests.first?.headers["cookie"] == "session=1")
        }
    }

    @Test func redirectsAreFollowed() async throws {
        try await Self.withSource("/old.bin", faults: .init { $0.redirects = ["/old.bin": "/f.bin"] }) { source, server in
            let bytes = try await source.read(0..<10)
            #expect(bytes == Array(Self.file[0..<10]))
            #expect(server.requests.map(\.status) == [302, 206])
        }
    }

    @Test func concurrentReadsShareOneRoundTripAndConnectionsAreReused() async throws {
        try await Self.withSource(faults: .init { $0.responseDelay = 0.05 }) { source, server in
            async let first = source.read(0..<10)
            async let second = source.read(50_000..<50_010)
            _ = try await (first, second)
            #expect(await source.statistics?.roundTrips == 1)
            _ = try await source.read(100..<110)
            #expect(await source.statistics?.roundTrips == 2)
            #expect(server.connections <= 2)
        }
    }

    @Test func nonHTTPURLIsRefused() {
        #expect(throws: FetchError.self) { _ = try HTTPByteSource(url: "ftp://example.com/x.mp4") }
    }

    @Test func aRefusedConnectionIsToldApartFromAReset() async throws {
        let url = try await TestHTTPServer.serving(["/f.bin": Self.file]) { $0.url("/f.bin") }  // nothing listens on its port now
        let source = try HTTPByteSource(url: url, options: Self.fastOptions { $0.maximumRetries = 1 })
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .connectionRefused, "\(error)")
        #expect(error.description == "\(url), bytes 0-99: the connection was refused (errno \(ECONNREFUSED))")
        #expect((error as any Error).localizedDescription == error.description)
    }
}
