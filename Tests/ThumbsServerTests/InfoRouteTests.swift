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
}
