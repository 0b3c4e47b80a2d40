import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// `/info` over the fault-injecting origin, against ffprobe's description of the fixture.
@Suite struct InfoRouteTests {
    struct Info: Decodable {
        struct Track: Decodable {
            var kind: String
            var codedWidth: Int?
            var codedHeight: Int?
            var sampleCount: Int
            var syncSampleCount: Int
        }
        var fileSize: UInt64?
        var tracks: [Track]
    }

    @Test func infoDescribesTheMovieAsFFprobeDoes() async throws {
        let expected = try Fixtures.expectation("h264-faststart")
        try await RunningServer.withOrigin { server, origin in
            let path = "/info?url=" + origin.url("/media/a.mp4").queryEncoded
            let answer = try await server.get(path)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json")
            let info = try JSONDecoder().decode(Info.self, from: Data(answer.body))
            #expect(info.fileSize == expected.fileSize)
            let video = try #require(info.tracks.first { $0.kind == "video" })
            #expect(video.codedWidth == expected.sps?.codedWidth)
            #expect(video.codedHeight == expected.sps?.codedHeight)
            #expect(video.sampleCount == expected.packets.count)
            #expect(video.syncSampleCount == expected.packets.filter(\.key).count)
            let tag = try #require(answer.headers["etag"])
            #expect(try await server.get(path, headers: [("If-None-Match", tag)]).status == 304)
            #expect(try await server.get("/info?url=" + origin.url("/media/notes.txt").queryEncoded).status == 415)
            #expect(try await server.get("/info?url=" + origin.url("/private/b.mp4").queryEncoded).status == 403)
            #expect(try await server.get("/info?url=\(origin.url("/media/a.mp4").queryEncoded)&time=1").status == 400)
        }
    }

    /// `/info`, the thumbnail and storyboard routes share the index the service keeps: after a thumbnail, `/info`
    /// costs the origin one byte (the check that the file is the one the index is of), and a storyboard reads its
    /// keyframes alone; a file replaced since is read again.
    @Test func routesShareTheKeptIndex() async throws {
        try await RunningServer.withOrigin { server, origin in
            let url = origin.url("/media/a.mp4").queryEncoded
            #expect(try await server.get("/thumbnail.jpg?url=" + url + "&width=64").status == 200)
            let located = origin.requests
            #expect(!located.isEmpty)
            origin.resetLog()
            #expect(try await server.get("/info?url=" + url).status == 200)
            #expect(origin.requests.map(\.range) == ["bytes=0-0"])
            #expect(origin.bodyBytes == 1)
            origin.resetLog()
            #expect(try await server.get("/storyboard.vtt?url=" + url).status == 200)
            // Keyframes only: none of the requests is for the ends the index was located from.
            #expect(!origin.requests.isEmpty)
            #expect(Set(origin.requests.compactMap(\.range)).isDisjoint(with: Set(located.compactMap(\.range))))
            // Replaced (another length, so another ETag): the check is refused and the index read again.
            origin.replace("/media/a.mp4", with: try Fixtures.bytes("hevc-8bit"))
            origin.resetLog()
            let answer = try await server.get("/info?url=" + url)
            let info = try JSONDecoder().decode(Info.self, from: Data(answer.body))
            #expect(info.fileSize == UInt64(try Fixtures.bytes("hevc-8bit").count))
            #expect(origin.requests.count > 1)
        }
    }
}
