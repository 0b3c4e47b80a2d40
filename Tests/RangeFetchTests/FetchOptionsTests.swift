import MP4Box
@testable import RangeFetch
import RangeFetchTestSupport
import Testing

/// Every `HTTPFetchOptions` field has the effect it documents, against the fault-injecting server.
@Suite(.timeLimit(.minutes(1))) struct FetchOptionsTests {
    static let file = HTTPByteSourceTests.file

    static func options(_ change: (inout HTTPFetchOptions) -> Void = { _ in }) -> HTTPFetchOptions {
        var options = HTTPByteSourceTests.fastOptions()
        options.maximumRetries = 0
        change(&options)
        return options
    }

    @Test func maximumRedirectsIsObeyed() async throws {
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/a": "/b", "/b": "/c", "/c": "/f.bin"]
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let two = try HTTPByteSource(url: server.url("/a"), options: Self.options { $0.maximumRedirects = 2 })
        #expect(try await #require(throws: FetchError.self) { _ = try await two.read(0..<10) }.code == .redirectRefused)
        let three = try HTTPByteSource(url: server.url("/a"), options: Self.options { $0.maximumRedirects = 3 })
        #expect(try await three.read(0..<10) == Array(Self.file[0..<10]))
    }

    @Test func laterReadsGoStraightToWhereTheRedirectsLed() async throws {
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/old.bin": "/f.bin"]
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/old.bin"), options: Self.options())
        #expect(try await source.read(0..<10) == Array(Self.file[0..<10]))
        #expect(try await source.read(500..<510) == Array(Self.file[500..<510]))
        #expect(server.requests.map(\.path) == ["/old.bin", "/f.bin", "/f.bin"])
    }

    @Test func credentialsAreNotSentOnToAnotherOrigin() async throws {
        let target = try await TestHTTPServer(files: ["/f.bin": Self.file])
        defer { Task { try? await target.shutdown() } }
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/m.bin": target.url("/f.bin")]
        let origin = try await TestHTTPServer(files: [:], faults: faults)
        defer { Task { try? await origin.shutdown() } }
        let source = try HTTPByteSource(url: origin.url("/m.bin"), options: Self.options {
            $0.headers = [("Authorization", "Bearer secret"), ("Cookie", "s=1"), ("X-Trace", "t1")]
        })
        #expect(try await source.read(0..<10) == Array(Self.file[0..<10]))
        #expect(origin.requests.first?.headers["authorization"] == "Bearer secret")
        let forwarded = try #require(target.requests.first?.headers)
        #expect(forwarded["authorization"] == nil)
        #expect(forwarded["cookie"] == nil)
        #expect(forwarded["x-trace"] == "t1")
    }

    @Test func redirectsTheCallerRefusesOrToOtherSchemesAreNotFollowed() async throws {
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/ftp": "ftp://127.0.0.1/f.bin", "/elsewhere": "http://example.invalid/f.bin"]
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let ftp = try HTTPByteSource(url: server.url("/ftp"), options: Self.options())
        #expect(try await #require(throws: FetchError.self) { _ = try await ftp.read(0..<10) }.code == .redirectRefused)
        let prefix = server.url("/")
        let refused = try HTTPByteSource(url: server.url("/elsewhere"), options: Self.options {
            $0.allowsRedirect = { $0.hasPrefix(prefix) }
        })
        #expect(try await #require(throws: FetchError.self) { _ = try await refused.read(0..<10) }.code == .redirectRefused)
        #expect(server.requests.count == 2)
    }

    @Test func readTimeoutEndsAWaitForTheResponse() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 5
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.options { $0.readTimeout = 0.3 })
        #expect(try await #require(throws: FetchError.self) { _ = try await source.read(0..<10) }.code == .timedOut)
    }

    @Test func timeoutsChooseTheClient() throws {
        let options = Self.options {
            $0.connectTimeout = 0.25
            $0.readTimeout = 7
        }
        let source = try HTTPByteSource(url: "http://127.0.0.1:1/f.bin", options: options)
        #expect(source.client.connectTimeout == 0.25)
        #expect(source.client.readTimeout == 7)
        #expect(source.client === RangeFetchClient.shared(for: options))
        #expect(try HTTPByteSource(url: "http://127.0.0.1:1/f.bin").client === RangeFetchClient.shared)
    }

    @Test func bodyStillArrivingAtTheDeadlineIsStopped() async throws {
        var faults = TestHTTPServer.Faults()
        faults.bandwidth = 50_000  // 100 KB take 2 s
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.options { $0.deadline = 0.4 })
        #expect(try await #require(throws: FetchError.self) { _ = try await source.read(0..<100_000) }.code == .budgetExceeded)
    }

    @Test func connectionsCountedAreTheConnectionsTheServerSaw() async throws {
        var faults = TestHTTPServer.Faults()
        faults.responseDelay = 0.05
        let server = try await HTTPByteSourceTests.server(faults)
        defer { Task { try? await server.shutdown() } }
        let client = RangeFetchClient()
        let source = try HTTPByteSource(url: server.url("/f.bin"), options: Self.options(), client: client)
        async let first = source.read(0..<10)
        async let second = source.read(50_000..<50_010)
        _ = try await (first, second)
        _ = try await source.read(100..<110)
        let counted = try #require(await source.statistics?.connectionsOpened ?? nil)
        #expect(counted == server.connections)
        #expect(counted >= 1)
        try await client.shutdown()
    }
}
