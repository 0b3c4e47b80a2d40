import Foundation
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing

/// HTTPByteSource against the fault-injecting test server: bytes, requests and typed errors.
@Suite(.timeLimit(.minutes(1))) struct HTTPByteSourceTests {
    static let file: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    static func server(_ faults: TestHTTPServer.Faults = .init()) async throws -> TestHTTPServer {
        try await TestHTTPServer(files: ["/f.bin": file], faults: faults)
    }

    static func fastOptions() -> HTTPFetchOptions {
        var options = HTTPFetchOptions()
        options.retryBackoff = 0.01
        options.readTimeout = 10  // the client's wait for each read: generous, so a loaded CI machine does not time out
        return options
    }

    @Test func rangeReadsReturnExactlyTheBytesAndLearnTheLengthWithoutHEAD() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
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

    @Test func suffixRangeReadsTheTailWithoutKnowingTheLength() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        let (bytes, offset) = try await source.readSuffix(1000)
        #expect(offset == 99_000)
        #expect(bytes == Array(Self.file[99_000...]))
        #expect(server.requests.map(\.range) == ["bytes=-1000"])
        #expect(await source.knownLength == 100_000)
    }

    @Test func aWholeBodyFromAServerIgnoringRangeIsReadOnceKeptAndCountedAsTheServerSentIt() async throws {
        var faults = TestHTTPServer.Faults()
        faults.ignoresRange = true
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
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

    @Test func aBodyTooLongToKeepIsReadOnlyAsFarAsNeeded() async throws {
        var faults = TestHTTPServer.Faults()
        faults.ignoresRange = true
        faults.bandwidth = 2_000_000  // so the client can stop before the server has sent everything
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.maximumKeptBodyBytes = 10_000
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        #expect(try await source.read(0..<5_000) == Array(Self.file[0..<5_000]))
        let stats = try #require(await source.statistics)
        #expect(stats.ignoredRangeResponses == 1)
        #expect(stats.bytes < 60_000, "read \(stats.bytes) bytes of a 100000-byte body for 5000")
        #expect(await source.knownLength == 100_000)
    }

    @Test func theByteBudgetStopsABodyMidTransfer() async throws {
        let large: [UInt8] = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var faults = TestHTTPServer.Faults()
        faults.ignoresRange = true
        faults.bandwidth = 10_000_000  // slow enough that the server is still sending when the budget is reached
        let server = try await TestHTTPServer(files: ["/large.bin": large], faults: faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.maximumBytes = 1_000_000
        let source = try HTTPByteSource(url: server.url("/large.bin"), options: options)
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(2_500_000..<2_600_000) }
        #expect(error.code == .budgetExceeded)
        #expect(error.detail.contains("byte budget of 1000000 bytes reached"), "\(error)")
        let stats = try #require(await source.statistics)
        #expect(stats.bytes > 1_000_000 && stats.bytes < 1_100_000, "\(stats.bytes) bytes received")
    }

    @Test func changedETagIsAResourceChangedError() async throws {
        var faults = TestHTTPServer.Faults()
        faults.changeETagAfterRequests = 1
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        _ = try await source.read(0..<10)
        do {
            _ = try await source.read(10..<20)
            Issue.record("a changed resource was read")
        } catch let error as FetchError {
            #expect(error.code == .resourceChanged)
            #expect(error.range == 10..<20)
            #expect(error.url == server.url("/f.bin"))
        }
        // If-Range made the server send the whole new version (200): the client stopped reading it.
        #expect(server.requests.last?.status == 200)
    }

    @Test func restartPolicyAdoptsTheNewVersion() async throws {
        var faults = TestHTTPServer.Faults()
        faults.changeETagAfterRequests = 1
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.changePolicy = .restart
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        _ = try await source.read(0..<10)
        #expect(try await source.read(10..<20) == Array(Self.file[10..<20]))
        #expect(await source.validator?.etag == "\"v2-100000\"")
    }

    @Test func resetAfterSomeBodyBytesIsRetriedAndRecovers() async throws {
        var faults = TestHTTPServer.Faults()
        faults.resetAfterBodyBytes = 1000
        faults.resetRequests = 1
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        #expect(try await source.read(0..<50_000) == Array(Self.file[0..<50_000]))
        let stats = try #require(await source.statistics)
        #expect(stats.retries == 1)
        #expect(stats.requests == 2)
        #expect(server.requests.count == 2)
    }

    @Test func persistentResetsEndInATypedError() async throws {
        var faults = TestHTTPServer.Faults()
        faults.resetAfterBodyBytes = 1000
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.maximumRetries = 2
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        await #expect(throws: FetchError.self) { _ = try await source.read(0..<50_000) }
        do {
            _ = try await source.read(0..<50_000)
        } catch let error as FetchError {
            #expect([.truncatedBody, .connectionReset].contains(error.code), "\(error)")
        }
        #expect(server.requests.count == 6)  // 1 + 2 retries, twice
    }

    @Test func truncatedBodyIsATypedErrorAfterRetries() async throws {
        var faults = TestHTTPServer.Faults()
        faults.truncatesBody = true
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.maximumRetries = 1
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        do {
            _ = try await source.read(0..<10_000)
            Issue.record("a truncated body was accepted")
        } catch let error as FetchError {
            #expect([.truncatedBody, .connectionReset].contains(error.code), "\(error)")
            #expect(error.range == 0..<10_000)
        }
        #expect(server.requests.count == 2)
    }

    @Test func wrongContentRangeIsDetected() async throws {
        var faults = TestHTTPServer.Faults()
        faults.wrongContentRange = true
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        await #expect(throws: FetchError(.contentRangeMismatch, url: server.url("/f.bin"), range: 100..<200, status: 206,
                                         "content-range bytes 101-199/100000 does not match the request")) {
            _ = try await source.read(100..<200)
        }
    }

    @Test func bodyLongerThanAnnouncedIsDetected() async throws {
        var faults = TestHTTPServer.Faults()
        faults.bodyLongerThanAnnounced = true
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        do {
            _ = try await source.read(0..<1000)
            Issue.record("an over-long body was accepted")
        } catch let error as FetchError {
            #expect(error.code == .bodyTooLong)
        }
    }

    @Test func serviceUnavailableIsRetriedThenSucceeds() async throws {
        var faults = TestHTTPServer.Faults()
        faults.serviceUnavailableRequests = 2
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        #expect(try await source.read(0..<100) == Array(Self.file[0..<100]))
        #expect(server.requests.map(\.status) == [503, 503, 206])
        #expect(await source.statistics?.retries == 2)
    }

    @Test(arguments: [(404, FetchError.Code.notFound), (403, .forbidden), (401, .forbidden), (500, .serverError), (400, .clientError)])
    func statusCodesGiveTypedErrors(_ status: Int, _ code: FetchError.Code) async throws {
        var faults = TestHTTPServer.Faults()
        faults.forcedStatus = status
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        do {
            _ = try await source.read(0..<100)
            Issue.record("status \(status) was accepted")
        } catch let error as FetchError {
            #expect(error.code == code)
            #expect(error.status == status)
            #expect(error.description.contains("bytes 0-99"))
        }
        #expect(server.requests.count == 1)  // none of these is retried
    }

    @Test func missingFileIsNotFound() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/missing.mp4"), options: Self.fastOptions())
        await #expect(throws: FetchError.self) { _ = try await source.read(0..<10) }
    }

    @Test func slowFirstByteHitsTheDeadline() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 20
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.deadline = 0.3
        options.maximumRetries = 0
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await source.read(0..<100)
            Issue.record("a read past the deadline succeeded")
        } catch let error as FetchError {
            #expect([.timedOut, .budgetExceeded].contains(error.code), "\(error)")
        }
        // The server would answer after 20 s: the deadline ended the wait long before (a generous bound, not a timing test).
        #expect(clock.now - start < .seconds(10))
    }

    @Test func requestAndByteBudgetsStopTheWork() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.maximumRequests = 2
        let limited = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        _ = try await limited.read(0..<10)
        _ = try await limited.read(10..<20)
        await #expect(throws: FetchError.self) { _ = try await limited.read(20..<30) }
        var byteOptions = Self.fastOptions()
        byteOptions.maximumBytes = 1000
        let capped = try HTTPByteSource(url: server.url("/f.bin"), options: byteOptions)
        do {
            _ = try await capped.read(0..<5000)
            Issue.record("a read past the byte budget succeeded")
        } catch let error as FetchError {
            #expect(error.code == .budgetExceeded)
        }
    }

    @Test func callerHeadersReachTheServer() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        var options = Self.fastOptions()
        options.headers = [("Authorization", "Bearer abc"), ("Cookie", "session=1")]
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: options)
        _ = try await source.read(0..<10)
        #expect(server.requests.first?.headers["authorization"] == "Bearer abc")
        #expect(server.requests.first?.headers["cookie"] == "session=1")
    }

    @Test func redirectsAreFollowed() async throws {
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/old.bin": "/f.bin"]
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/old.bin"), options: Self.fastOptions())
        #expect(try await source.read(0..<10) == Array(Self.file[0..<10]))
        #expect(server.requests.map(\.status) == [302, 206])
    }

    @Test func concurrentReadsShareOneRoundTripAndConnectionsAreReused() async throws {
        var faults = TestHTTPServer.Faults()
        faults.responseDelay = 0.05
        let server = try await Self.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.fastOptions())
        async let first = source.read(0..<10)
        async let second = source.read(50_000..<50_010)
        _ = try await (first, second)
        #expect(await source.statistics?.roundTrips == 1)
        _ = try await source.read(100..<110)
        #expect(await source.statistics?.roundTrips == 2)
        #expect(server.connections <= 2)
    }

    @Test func nonHTTPURLIsRefused() {
        #expect(throws: FetchError.self) { _ = try HTTPByteSource(url: "ftp://example.com/x.mp4") }
    }

    @Test func aRefusedConnectionIsToldApartFromAReset() async throws {
        let server = try await Self.server()
        let url = server.url("/f.bin")
        try await server.shutdown()    // nothing listens on its port now
        var options = Self.fastOptions()
        options.maximumRetries = 1
        let source = try HTTPByteSource(url: url, options: options)
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .connectionRefused, "\(error)")
        #expect(error.description == "\(url), bytes 0-99: the connection was refused (errno \(ECONNREFUSED))")
        #expect((error as any Error).localizedDescription == error.description)
    }
}
