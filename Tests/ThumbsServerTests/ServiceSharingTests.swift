import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// What the one `ThumbnailService` per process gives requesters: identical concurrent requests share one fetch and
/// decode; request headers reach origins only when configured, and then requests with other credentials never share.
@Suite struct ServiceSharingTests {
    @Test func identicalConcurrentRequestsShareOneFetchAndDecode() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 0.3  // long enough for all of them to arrive while the first is at work
        try await RunningServer.withOrigin(faults) { server, origin in
            // What one thumbnail of this movie costs the origin, on its own.
            let first = try await server.get("/thumbnail.png?url=\(origin.url("/media/a.mp4").queryEncoded)&width=50")
            #expect(first.status == 200)
            let one = origin.requestCount
            await server.server.service.removeAll()
            let before = origin.requestCount
            let path = "/thumbnail.png?url=\(origin.url("/media/a.mp4").queryEncoded)&width=60"
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 { group.addTask { try await server.get(path).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 6))
            #expect(origin.requestCount - before == one)
            let statistics = await server.server.service.statistics
            #expect(statistics.generated == 2)  // the first picture, and this one once
            #expect(statistics.coalesced + statistics.cacheHits == 5)
        }
    }

    @Test func requestHeadersReachTheOriginOnlyWhenForwarded() async throws {
        var faults = TestHTTPServer.Faults()
        faults.requiredAuthorization = "Bearer right"
        let path: @Sendable (TestHTTPServer) -> String = { origin in "/thumbnail.png?url=\(origin.url("/media/a.mp4").queryEncoded)&width=40" }
        try await RunningServer.withOrigin(faults) { server, origin in
            let kept = try await server.get(path(origin), headers: [("Authorization", "Bearer right")])
            #expect(kept.status == 502)  // the origin said 403: the header was not sent on
            #expect(origin.requests.allSatisfy { $0.headers["authorization"] == nil && $0.headers["Authorization"] == nil })
        }
        try await RunningServer.withOrigin(faults, configure: { $0.forwardedHeaders = ["authorization"] }) { server, origin in
            let path = path(origin)
            let right = try await server.get(path, headers: [("Authorization", "Bearer right")])
            #expect(right.status == 200)
            // Made with the client's credentials: for its own cache only, never a shared one keyed on the URL.
            #expect(right.headers["cache-control"] == "private, max-age=86400")
            #expect(right.headers["vary"]?.lowercased() == "authorization")
            // Another credential is another asset: not the picture just made, but a request of its own, refused.
            let wrong = try await server.get(path, headers: [("Authorization", "Bearer wrong")])
            #expect(wrong.status == 502)
            let none = try await server.get(path)
            #expect(none.status == 502)
        }
    }

    /// With headers forwarded, every answer a cache may keep varies on all of them: one made without them must not
    /// be handed to a request with them (someone whose credentials or tenant would give another picture, or no 404),
    /// nor the other way round. It used to be `public` without `Vary`, so a shared cache keyed on the URL handed the
    /// anonymous answer to everyone. With one of them in the request, the answer is private, errors included.
    @Test func everyAnswerVariesOnTheForwardedHeaders() async throws {
        try await RunningServer.withOrigin(configure: { $0.forwardedHeaders = ["x-tenant", "authorization"] }) { server, origin in
            let url = origin.url("/media/a.mp4").queryEncoded
            let missing = origin.url("/media/none.mp4").queryEncoded
            for path in ["/thumbnail.png?url=\(url)&width=40", "/info?url=\(url)", "/storyboard.vtt?url=\(url)&interval=1&width=32",
                         "/thumbnail.png?url=\(missing)"] {
                let isError = path.contains("none.mp4")
                let anonymous = try await server.get(path)
                #expect(anonymous.status == (isError ? 404 : 200), "\(path)")
                #expect(anonymous.headers["cache-control"] == (isError ? "public, max-age=60" : "public, max-age=86400"), "\(path)")
                #expect(anonymous.headers["vary"] == "authorization, x-tenant", "\(path)")
                let tenant = try await server.get(path, headers: [("X-Tenant", "blue")])
                #expect(tenant.headers["cache-control"] == (isError ? "private, max-age=60" : "private, max-age=86400"), "\(path)")
                #expect(tenant.headers["vary"] == "authorization, x-tenant", "\(path)")
            }
        }
        try await RunningServer.withOrigin { server, origin in  // nothing forwarded: nothing to vary on
            let answer = try await server.get("/thumbnail.png?url=\(origin.url("/media/a.mp4").queryEncoded)&width=40",
                                              headers: [("X-Tenant", "blue")])
            #expect(answer.headers["cache-control"] == "public, max-age=86400")
            #expect(answer.headers["vary"] == nil)
        }
    }
}
