import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs
@testable import ThumbsServer

/// `/thumbnail.*` over the fault-injecting origin: the picture and its headers, conditional requests, and every error
/// status, with the origin's request log showing what was (and was not) fetched.
@Suite struct ThumbnailRouteTests {
    static func configuration(allowing origin: TestHTTPServer) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = [try OriginPrefix(origin.url("/media/"))]
        configuration.maximumConcurrentDecodes = 2
        return configuration
    }

    static func origin(_ faults: TestHTTPServer.Faults = TestHTTPServer.Faults()) async throws -> TestHTTPServer {
        try await TestHTTPServer(files: ["/media/a.mp4": try Fixtures.bytes("h264-faststart"),
                                         "/media/notes.txt": Array("WEBVTT? no, just text, long enough to be read as a box header".utf8),
                                         "/private/b.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
    }

    @Test(arguments: [("png", "image/png"), ("jpg", "image/jpeg"), ("webp", "image/webp")])
    func aThumbnailComesWithItsTypeTagCachingAndTimings(format: String, mediaType: String) async throws {
        try await RunningServer.withOrigin { server, origin in
            let url = origin.url("/media/a.mp4").queryEncoded
            let answer = try await server.get("/thumbnail.\(format)?url=\(url)&width=160&time=1")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == mediaType)
            let image = try ImageDecoder().decode(answer.body)
            #expect(image.width == 160 && image.height == 120)
            let tag = try #require(answer.headers["etag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            #expect(answer.headers["cache-control"] == "public, max-age=86400")
            let timing = try #require(answer.headers["server-timing"])
            for stage in ["index;dur=", "fetch;dur=", "decode;dur=", "render;dur=", "encode;dur="] { #expect(timing.contains(stage)) }
            #expect(origin.requestCount > 0)
        }
    }

    @Test func ifNoneMatchIsAnsweredWithoutAnyOriginRequestOnceTheIndexIsKnown() async throws {
        try await RunningServer.withOrigin { server, origin in
            let path = "/thumbnail.jpg?url=\(origin.url("/media/a.mp4").queryEncoded)&width=96"
            let first = try await server.get(path)
            let tag = try #require(first.headers["etag"])
            let requests = origin.requestCount
            await server.server.service.removeAll()  // not even the picture is kept: only the tag and a fresh index matter
            let refilled = try await server.get(path)
            #expect(refilled.headers["etag"] == tag)  // the same bytes and parameters give the same tag
            let afterRefill = origin.requestCount
            #expect(afterRefill > requests)
            let conditional = try await server.get(path, headers: [("If-None-Match", "\"other\", W/\(tag)")])
            #expect(conditional.status == 304)
            #expect(conditional.body.isEmpty)
            #expect(conditional.headers["etag"] == tag)
            #expect(origin.requestCount == afterRefill)
            // Other parameters, another tag.
            let other = try await server.get(path + "&time=2")
            #expect(other.status == 200 && other.headers["etag"] != tag)
        }
    }

    /// `time=best` from the media root: the keyframe of the sharp stretch of the stretches fixture (6-8 s by how it
    /// was made), its time in `Thumbs-Actual-Time`; with `percent` as well, 400.
    @Test func timeBestIsTheSharpStretchsKeyframe() async throws {
        var configuration = ServerConfiguration()
        configuration.mediaRoot = Fixtures.directory.path
        try await RunningServer.with(configuration) { server in
            let answer = try await server.get("/thumbnail.png?path=best-frame-stretches.mp4&time=best&width=160")
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            let actual = try #require(answer.headers["thumbs-actual-time"].flatMap(Double.init))
            #expect((6.0..<8.0).contains(actual), "\(actual) s")
            let image = try ImageDecoder().decode(answer.body)
            #expect(image.width == 160 && image.height == 90)
            let both = try await server.get("/thumbnail.png?path=best-frame-stretches.mp4&time=best&percent=10")
            #expect(both.status == 400)
        }
    }

    @Test func badParametersAre400NamingTheParameter() async throws {
        try await RunningServer.withOrigin { server, origin in
            let url = "url=" + origin.url("/media/a.mp4").queryEncoded
            for (query, parameter) in [("", "url"), ("\(url)&width=abc", "width"), ("\(url)&width=99999", "width"),
                                       ("\(url)&time=-1", "time"), ("\(url)&percent=101", "percent"),
                                       ("\(url)&time=1&percent=5", "percent"), ("\(url)&fit=zoom", "fit"),
                                       ("\(url)&exact=maybe", "exact"), ("\(url)&quality=80", "quality"),
                                       ("\(url)&colour=red", "colour"), ("\(url)&width=1&width=2", "width"),
                                       ("\(url)&path=a.mp4", "path")] {
                let answer = try await server.get("/thumbnail.png?" + query)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.headers["content-type"] == "application/json")
                #expect(answer.error["parameter"] == parameter, "\(query)")
                #expect(answer.error["error"] == "badParameter")
            }
            #expect(origin.requestCount == 0)
        }
    }

    @Test func originsSchemesAndLocalFilesOutsideThePolicyAreRefusedWithoutAnyRequest() async throws {
        let origin = try await Self.origin()
        let elsewhere = try await Self.origin()
        defer { Task { try? await origin.shutdown(); try? await elsewhere.shutdown() } }
        try await RunningServer.with(try Self.configuration(allowing: origin)) { server in
            let host = "127.0.0.1:\(origin.port)"
            for url in [origin.url("/private/b.mp4"), elsewhere.url("/media/a.mp4"), "http://\(host)@127.0.0.1:\(elsewhere.port)/media/a.mp4",
                        "http://\(host)/media/../private/b.mp4", "http://\(host)/media/%2e%2e/private/b.mp4",
                        "file:///etc/passwd", "file://\(Fixtures.path("h264-faststart"))", Fixtures.path("h264-faststart"),
                        "gopher://\(host)/media/a.mp4"] {
                let answer = try await server.get("/thumbnail.png?url=" + url.queryEncoded)
                #expect(answer.status == 403, "\(url)")
                #expect(answer.error["error"] == "originNotAllowed", "\(url)")
            }
            let local = try await server.get("/thumbnail.png?path=h264-faststart.mp4")
            #expect(local.status == 403)
            #expect(local.error["error"] == "pathNotAllowed")
            #expect(origin.requestCount == 0)
            #expect(elsewhere.requestCount == 0)
        }
    }

    @Test func aRedirectOutOfTheAllowedOriginsIsNotFollowed() async throws {
        let elsewhere = try await Self.origin()
        var faults = TestHTTPServer.Faults()
        faults.redirects = ["/media/moved.mp4": elsewhere.url("/media/a.mp4"), "/media/inside.mp4": "/media/a.mp4"]
        let origin = try await Self.origin(faults)
        defer { Task { try? await origin.shutdown(); try? await elsewhere.shutdown() } }
        try await RunningServer.with(try Self.configuration(allowing: origin)) { server in
            let refused = try await server.get("/thumbnail.png?url=" + origin.url("/media/moved.mp4").queryEncoded)
            #expect(refused.status == 502)
            #expect(refused.error["detail"]?.contains("not allowed") == true)
            #expect(elsewhere.requestCount == 0)
            let followed = try await server.get("/thumbnail.png?url=" + origin.url("/media/inside.mp4").queryEncoded)
            #expect(followed.status == 200)
        }
    }

    @Test func theOriginsFailuresAreAnsweredWithTheirOwnStatus() async throws {
        try await RunningServer.withOrigin { server, origin in
            let missing = try await server.get("/thumbnail.png?url=" + origin.url("/media/none.mp4").queryEncoded)
            #expect(missing.status == 404)
            #expect(missing.error["error"] == "notFound")
            #expect(missing.headers["cache-control"] == "public, max-age=60")  // what the file is, briefly cacheable
            let text = try await server.get("/thumbnail.png?url=" + origin.url("/media/notes.txt").queryEncoded)
            #expect(text.status == 415)
            #expect(text.error["detail"]?.contains("not an MP4 or QuickTime file") == true)
            origin.update { $0.forcedStatus = 500 }
            let failing = try await server.get("/thumbnail.png?url=" + origin.url("/media/a.mp4").queryEncoded)
            #expect(failing.status == 502)
            #expect(failing.headers["cache-control"] == "no-store")
            #expect(failing.error["error"] == "originFailed")
        }
    }

    @Test func aSlowOriginIsAnswered504AtTheDeadline() async throws {
        var faults = TestHTTPServer.Faults()
        // The origin answers after 20 s; the answer must come at the 0.5 s deadline, before the origin's first byte.
        // The bound is that first byte, not the deadline: two full parallel test runs at once on 2 cores with a busy
        // loop took 12.6 s to answer.
        faults.firstByteDelay = 20
        try await RunningServer.withOrigin(faults, configure: { $0.requestDeadline = 0.5 }) { server, origin in
            let started = ContinuousClock.now
            let answer = try await server.get("/thumbnail.png?url=" + origin.url("/media/a.mp4").queryEncoded)
            #expect(answer.status == 504)
            #expect(answer.error["error"] == "deadlineExceeded")
            #expect(ContinuousClock.now - started < .seconds(19))
        }
    }

    @Test func pastTheQueueTheAnswerIs503WithRetryAfter() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 1.5
        try await RunningServer.withOrigin(faults, configure: { $0.maximumConcurrentDecodes = 1; $0.maximumQueue = 0 }) { server, origin in
            let url = origin.url("/media/a.mp4").queryEncoded
            async let slow = server.get("/thumbnail.png?url=\(url)&width=64")
            // Once the origin sees its first request, that request holds the one place (a fixed wait was a race on
            // a loaded machine: the second request could come first).
            try await Self.waitUntil { origin.requestCount > 0 }
            let turnedAway = try await server.get("/thumbnail.png?url=\(url)&width=65")
            #expect(turnedAway.status == 503)
            #expect(turnedAway.headers["retry-after"] == "1")
            #expect(turnedAway.error["error"] == "overloaded")
            #expect(try await slow.status == 200)
        }
    }

    @Test func aClientThatDisconnectsCancelsTheWork() async throws {
        var faults = TestHTTPServer.Faults()
        faults.firstByteDelay = 20
        try await RunningServer.withOrigin(faults) { server, origin in
            let url = origin.url("/media/a.mp4").queryEncoded
            // The client closes its connection once the work has started (the origin has its first request), long
            // before the origin answers.
            do {
                let connection = try RawConnection(port: server.port)
                connection.send("GET /thumbnail.png?url=\(url) HTTP/1.1\r\nHost: x\r\n\r\n")
                try await Self.waitUntil { origin.requestCount > 0 }
                withExtendedLifetime(connection) {}
            }
            var cancelled = 0
            for _ in 0..<200 where cancelled == 0 {
                try await Task.sleep(for: .milliseconds(50))
                cancelled = await server.server.service.statistics.cancelledWork
            }
            #expect(cancelled == 1)
            #expect(await server.server.service.inFlightCount == 0)
            // The route records its answer once the cancelled work has returned to it: a moment after the cancellation.
            let closed = "thumbs_http_requests_total{route=\"/thumbnail.png\",status=\"499\"} 1"
            var metrics = ""
            for _ in 0..<200 where !metrics.contains(closed) {
                metrics = String(decoding: try await server.get("/metrics").body, as: UTF8.self)
                if !metrics.contains(closed) { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(metrics.contains(closed))
        }
    }

    @Test func withASigningKeyOnlySignedRequestsReachTheOrigin() async throws {
        let signature = RequestSignature(key: Array("a signing key".utf8))
        try await RunningServer.withOrigin(configure: { $0.signingKey = Array("a signing key".utf8) }) { server, origin in
            let query = "url=\(origin.url("/media/a.mp4").queryEncoded)&width=80"
            for unsigned in ["/thumbnail.png?" + query, "/thumbnail.png?\(query)&sig=" + String(repeating: "0", count: 64),
                             signature.signedPathAndQuery(path: "/thumbnail.jpg", query: query).replacingOccurrences(of: ".jpg", with: ".png")] {
                let answer = try await server.get(unsigned)
                #expect(answer.status == 403)
                #expect(answer.error["error"] == "badSignature")
            }
            #expect(origin.requestCount == 0)
            let signed = try await server.get(signature.signedPathAndQuery(path: "/thumbnail.png", query: query))
            #expect(signed.status == 200)
            #expect(try await server.get("/healthz").status == 200)
        }
    }

    @Test func localFilesComeOnlyFromTheMediaRootAndErrorsDoNotShowItsPath() async throws {
        var configuration = ServerConfiguration()
        let root = Fixtures.path("h264-faststart").components(separatedBy: "/").dropLast().joined(separator: "/")
        configuration.mediaRoot = root
        try await RunningServer.with(configuration) { server in
            let answer = try await server.get("/thumbnail.png?path=h264-faststart.mp4&width=32")
            #expect(answer.status == 200)
            let readme = try await server.get("/thumbnail.png?path=README.md")
            #expect(readme.status == 415)
            #expect(readme.error["detail"]?.hasPrefix("README.md") == true)
            #expect(readme.error["detail"]?.contains(root) == false)
            #expect(try await server.get("/thumbnail.png?path=../Package.swift").status == 403)
            #expect(try await server.get("/thumbnail.png?path=none.mp4").status == 404)
            #expect(try await server.get("/thumbnail.png?url=" + "http://127.0.0.1:1/a.mp4".queryEncoded).status == 403)
        }
    }

    /// Waits (polling every 20 ms, up to 20 s) until `condition` holds; fails the test when it never does.
    static func waitUntil(_ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<1000 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("still waiting after 20 s", sourceLocation: sourceLocation)
    }
}
