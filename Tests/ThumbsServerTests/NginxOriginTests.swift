import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Storyboards
import Testing
import Thumbs
@testable import ThumbsServer

/// `/thumbnail.*` with a real nginx as the origin: the picture, a 304 that costs nginx nothing, nginx's 404 and a file
/// that is not a movie, counted from nginx's access log.
@Suite(.enabled(if: Nginx.binary != nil, "nginx is not installed"))
struct NginxOriginTests {
    static let nginx: Nginx? = try? Nginx(root: Fixtures.directory.path)

    @Test func thumbnailsConditionalRequestsAndErrorsOverNginx() async throws {
        let nginx = try #require(Self.nginx)
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = [try OriginPrefix(nginx.url(""))]
        try await RunningServer.with(configuration) { server in
            let tag = "?case=\(UUID().uuidString)"
            let movie = nginx.url("hevc-8bit.mp4" + tag)
            let path = "/thumbnail.webp?url=\(movie.queryEncoded)&width=120&lossless=1"
            let first = try await server.get(path)
            #expect(first.status == 200)
            let image = try ImageDecoder().decode(first.body)
            #expect(image.width == 120)
            let sent = try await nginx.sent(path: "/hevc-8bit.mp4" + tag, awaiting: 1)
            #expect(sent.requests >= 1)
            let etag = try #require(first.headers["etag"])
            let again = try await server.get(path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            try await Task.sleep(for: .milliseconds(200))
            #expect(nginx.sent(path: "/hevc-8bit.mp4" + tag).requests == sent.requests)

            let missing = try await server.get("/thumbnail.png?url=" + nginx.url("no-such-file.mp4").queryEncoded)
            #expect(missing.status == 404)
            let notAMovie = try await server.get("/thumbnail.png?url=" + nginx.url("README.md").queryEncoded)
            #expect(notAMovie.status == 415)
        }
    }

    @Test func infoAndStoryboardsOverNginx() async throws {
        let nginx = try #require(Self.nginx)
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = [try OriginPrefix(nginx.url(""))]
        try await RunningServer.with(configuration) { server in
            let movie = nginx.url("h264-bframes.mp4").queryEncoded
            let info = try await server.get("/info?url=\(movie)")
            #expect(info.status == 200)
            let expected = try Fixtures.expectation("h264-bframes")
            let decoded = try JSONDecoder().decode(InfoRouteTests.Info.self, from: Data(info.body))
            #expect(decoded.fileSize == expected.fileSize)
            let trackPath = "/storyboard.vtt?url=\(movie)&interval=1&width=48&columns=2&rows=1"
            let track = try await server.get(trackPath)
            #expect(track.status == 200)
            let read = try StoryboardTrack(webVTT: String(decoding: track.body, as: UTF8.self))
            #expect(read.cues.count == 3)
            let sheet = try #require(read.cues.first?.reference.url)
            let image = try await server.get("/" + sheet)
            #expect(image.status == 200 && image.headers["content-type"] == "image/jpeg")
            #expect(try ImageDecoder().decode(image.body).width == 96)
            let manifest = try await server.get(trackPath.replacingOccurrences(of: ".vtt", with: ".json"))
            #expect(manifest.status == 200)
        }
    }
}
