import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Storyboards
import StreamManifests
import Testing
import Thumbs
@testable import ThumbsServer

/// `/storyboard.vtt|.json` and their sheets over the fault-injecting origin: the track read back, every sheet it
/// names fetched through its relative reference, one making for the track, the manifest and the sheets.
@Suite struct StoryboardRouteTests {
    static let query = "interval=0.5&width=64&columns=2&rows=1"

    @Test func theTrackNamesSheetsTheServerAnswers() async throws {
        let expected = try Fixtures.expectation("h264-faststart")
        try await RunningServer.withOrigin { server, origin in
            let trackPath = "/storyboard.vtt?url=\(origin.url("/media/a.mp4").queryEncoded)&\(Self.query)"
            let answer = try await server.get(trackPath)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "text/vtt; charset=utf-8")
            let requestsAfterTrack = origin.requestCount
            let track = try StoryboardTrack(webVTT: String(decoding: answer.body, as: UTF8.self), baseURL: server.base + trackPath)
            let duration = try #require(expected.duration)
            #expect(track.cues.count == Int((duration / 0.5).rounded(.up)))
            var sheets: Set<String> = []
            for cue in track.cues {
                let region = try #require(cue.reference.region)
                #expect(region.width == 64 && region.height == 48)
                sheets.insert(URLReference.resolve(cue.reference.url, against: server.base + trackPath))
            }
            #expect(sheets.count == 3)  // six cues, two to a sheet
            for url in sheets {
                #expect(url.hasPrefix(server.base + "/storyboard/"))
                let sheet = try await server.get(String(url.dropFirst(server.base.count)))
                #expect(sheet.status == 200)
                #expect(sheet.headers["content-type"] == "image/jpeg")
                let image = try ImageDecoder().decode(sheet.body)
                #expect(image.width == 128 && image.height == 48)
            }
            let manifest = try await server.get(trackPath.replacingOccurrences(of: ".vtt", with: ".json"))
            #expect(manifest.status == 200)
            let decoded = try JSONDecoder().decode(StoryboardManifest.self, from: Data(manifest.body))
            #expect(decoded.cues.count == track.cues.count)
            #expect(origin.requestCount == requestsAfterTrack)  // sheets and manifest came from the one making
            let tag = try #require(answer.headers["etag"])
            #expect(try await server.get(trackPath, headers: [("If-None-Match", tag)]).status == 304)
            let missing = try await server.get("/storyboard/7.jpg?url=\(origin.url("/media/a.mp4").queryEncoded)&\(Self.query)")
            #expect(missing.status == 404)
            #expect(try await server.get(trackPath + "&columns=99").status == 400)
        }
    }

    @Test func signedTracksNameSignedSheets() async throws {
        let signature = RequestSignature(key: Array("storyboard key".utf8))
        try await RunningServer.withOrigin(configure: { $0.signingKey = Array("storyboard key".utf8) }) { server, origin in
            let query = "url=\(origin.url("/media/a.mp4").queryEncoded)&\(Self.query)"
            let trackPath = signature.signedPathAndQuery(path: "/storyboard.vtt", query: query)
            let answer = try await server.get(trackPath)
            #expect(answer.status == 200)
            let track = try StoryboardTrack(webVTT: String(decoding: answer.body, as: UTF8.self), baseURL: server.base + trackPath)
            let url = URLReference.resolve(try #require(track.cues.first?.reference.url), against: server.base + trackPath)
            #expect(try await server.get(String(url.dropFirst(server.base.count))).status == 200)
            let unsigned = try await server.get("/storyboard/0.jpg?" + query)
            #expect(unsigned.status == 403)
        }
    }

    /// A storyboard larger than a quarter of the store could never be kept (each sheet request would make it again):
    /// it is refused while being made, naming the interval.
    @Test func aStoryboardTooLargeToKeepIsRefused() async throws {
        try await RunningServer.withOrigin(configure: { $0.storyboardBytes = 4_000 }) { server, origin in
            let answer = try await server.get("/storyboard.vtt?url=\(origin.url("/media/a.mp4").queryEncoded)&interval=0.5&width=320")
            #expect(answer.status == 400)
            #expect(answer.error["parameter"] == "interval")
        }
    }

    /// A local file replaced in place (another inode, size and modification time) gets a new storyboard, as it gets
    /// new thumbnails: the kept one was keyed by path and options alone and came back, with the old file's cues.
    @Test func aReplacedLocalFileGetsANewStoryboard() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("storyboard-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let clip = root.appendingPathComponent("clip.mp4")
        try Data(Fixtures.bytes("h264-faststart")).write(to: clip)
        var configuration = ServerConfiguration()
        configuration.mediaRoot = root.path
        try await RunningServer.with(configuration) { server in
            let trackPath = "/storyboard.vtt?path=clip.mp4&\(Self.query)"
            let first = try await server.get(trackPath)
            #expect(first.status == 200)
            let firstTrack = try StoryboardTrack(webVTT: String(decoding: first.body, as: UTF8.self), baseURL: server.base + trackPath)
            #expect(firstTrack.cues.count == 6)  // 3 s at 0.5 s a cue
            // Replaced as a deploy does: written beside it, then renamed over it.
            let replacement = root.appendingPathComponent("clip.mp4.new")
            try Data(Fixtures.bytes("rotate-90")).write(to: replacement)
            #expect(rename(replacement.path, clip.path) == 0)
            let second = try await server.get(trackPath)
            #expect(second.status == 200)
            let secondTrack = try StoryboardTrack(webVTT: String(decoding: second.body, as: UTF8.self), baseURL: server.base + trackPath)
            #expect(secondTrack.cues.count == 4)  // 2 s
            #expect(secondTrack.cues.first?.reference.region?.height == 114)  // 180x320 upright, 64 wide
            #expect(second.headers["etag"] != first.headers["etag"])
        }
    }

    /// A storyboard's decodes wait for the service's decode bound (`--max-decodes`), as thumbnails do: with the one
    /// place taken, the storyboard being made waits for it, and is answered once it is given back. Each storyboard
    /// used to start a decoder per core of its own, so the gate's decodes + queue requests could decode at once.
    @Test func storyboardDecodesWaitForTheServicesDecodeBound() async throws {
        var configuration = ServerConfiguration()
        configuration.maximumConcurrentDecodes = 1
        configuration.mediaRoot = Fixtures.directory.path
        try await RunningServer.with(configuration) { server in
            let decodes = server.server.service.workLimits.decodes
            try await decodes.acquire()
            let answer = Task { try await server.get("/storyboard.vtt?path=h264-faststart.mp4&\(Self.query)") }
            var waited = false
            for _ in 0..<500 where !waited {
                try await Task.sleep(for: .milliseconds(20))
                waited = await decodes.waitingCount >= 1
            }
            #expect(waited)
            await decodes.release()
            #expect(try await answer.value.status == 200)
            #expect(await decodes.active == 0)
        }
    }
}
