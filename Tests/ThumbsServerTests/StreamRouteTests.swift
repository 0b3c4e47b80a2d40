import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs
import ThumbsServer

/// `thumbs serve` given a playlist: the stream's picture, from the media root or an allowed origin, with every segment
/// held to the same rules as the playlist (inside the root; under the allowed prefixes, as a redirect is).
@Suite struct StreamRouteTests {
    static let streams = Fixtures.directory.appendingPathComponent("streams")

    /// Media3's CMAF HLS stream from the media root at 1 s: ffmpeg's picture of the keyframe there (at least 35 dB),
    /// its time in `Thumbs-Actual-Time`.
    @Test func aPlaylistInTheMediaRootGivesItsStreamsPicture() async throws {
        var configuration = ServerConfiguration()
        configuration.mediaRoot = Fixtures.directory.path
        try await RunningServer.with(configuration) { server in
            let answer = try await server.get("/thumbnail.png?path=streams/media3-cmaf-multi-segment/playlist.m3u8&time=1&width=160")
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.headers["content-type"] == "image/png")
            #expect(answer.headers["thumbs-actual-time"].flatMap(Double.init) == 1)
            let image = try ImageDecoder().decode(answer.body)
            let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent(
                "references/cmaf-hls-1s.png"))))
            try #require(image.width == expected.width && image.height == expected.height)
            let quality = psnr(image.packed().pixels, expected.packed().pixels)
            #expect(quality >= 35, "psnr \(quality) dB")
        }
    }

    /// `time=latest` of shaka 7401's later live snapshot is its newest keyframe, at 1032 s (ffmpeg's picture of the
    /// segment from 1032 s: `shaka7401-live1-newest`); never kept fresh (`max-age=0`), tagged by its bytes, so asking
    /// again with the tag is answered 304.
    @Test func timeLatestIsTheNewestKeyframeOfALiveStream() async throws {
        var configuration = ServerConfiguration()
        configuration.mediaRoot = Fixtures.directory.path
        try await RunningServer.with(configuration) { server in
            let path = "/thumbnail.png?path=streams/shaka-7401/dash_1.mpd&time=latest&width=160"
            let answer = try await server.get(path)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.headers["thumbs-actual-time"].flatMap(Double.init) == 1032)
            #expect(answer.headers["cache-control"]?.contains("max-age=0") == true, "\(answer.headers["cache-control"] ?? "")")
            let image = try ImageDecoder().decode(answer.body)
            let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent(
                "references/shaka7401-live1-newest.png"))))
            try #require(image.width == expected.width && image.height == expected.height)
            #expect(psnr(image.packed().pixels, expected.packed().pixels) >= 35)
            let tag = try #require(answer.headers["etag"])
            let again = try await server.get(path, headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            let both = try await server.get(path + "&percent=10")
            #expect(both.status == 400)
        }
    }

    /// `/info` of a playlist is `thumbs info --json`'s summary of the stream: Media3's CMAF master with its media
    /// playlists' segments (counted here from their EXTINF lines); shaka 7401's live snapshot is live and asked for
    /// again (`max-age=0`).
    @Test func infoOfAPlaylistSummarisesTheStream() async throws {
        struct Summary: Decodable {
            struct Period: Decodable {
                struct Rendition: Decodable { var segmentCount: Int? }
                var renditions: [Rendition]
            }
            var format: String
            var live: Bool
            var periods: [Period]
        }
        var configuration = ServerConfiguration()
        configuration.mediaRoot = Fixtures.directory.path
        let folder = Self.streams.appendingPathComponent("media3-cmaf-multi-segment")
        let listed = try ["stream_0.m3u8", "stream_1.m3u8"].map { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "#EXTINF").count - 1
        }
        try await RunningServer.with(configuration) { server in
            let hls = try await server.get("/info?path=streams/media3-cmaf-multi-segment/playlist.m3u8")
            #expect(hls.status == 200, "\(String(decoding: hls.body, as: UTF8.self))")
            let summary = try JSONDecoder().decode(Summary.self, from: Data(hls.body))
            #expect(summary.format == "hls" && !summary.live)
            #expect(summary.periods.first?.renditions.compactMap(\.segmentCount).sorted() == listed.sorted())
            let live = try await server.get("/info?path=streams/shaka-7401/dash_1.mpd")
            #expect(live.status == 200)
            #expect(try JSONDecoder().decode(Summary.self, from: Data(live.body)).live)
            #expect(live.headers["cache-control"]?.contains("max-age=0") == true)
        }
    }

    /// `/storyboard.vtt` of a playlist is the stream's storyboard: FFmpeg's HLS cut of h264-bframes (3 s, 320x240 by
    /// ffprobe) in 0.5 s cues of 64-pixel tiles, two to a sheet, each sheet served as the track names it.
    @Test func aPlaylistsStoryboardIsServed() async throws {
        var configuration = ServerConfiguration()
        configuration.mediaRoot = Fixtures.directory.path
        let expectation = try Fixtures.expectation("h264-bframes")
        let tileHeight = 64 * (expectation.height ?? 0) / (expectation.width ?? 1)
        try await RunningServer.with(configuration) { server in
            let query = "path=streams/ffmpeg-hls-ts-h264-bframes/index.m3u8&interval=0.5&width=64&columns=2&rows=1"
            let track = try await server.get("/storyboard.vtt?" + query)
            #expect(track.status == 200, "\(String(decoding: track.body, as: UTF8.self))")
            let text = String(decoding: track.body, as: UTF8.self)
            let timings = text.split(separator: "\n").filter { $0.contains("-->") }
            #expect(timings.first == "00:00:00.000 --> 00:00:00.500" && timings.count == 6, "\(timings)")
            let references = text.split(separator: "\n").filter { $0.hasPrefix("storyboard/") }
            #expect(references.count == 6 && references.allSatisfy { $0.hasSuffix(",64,\(tileHeight)") }, "\(references)")
            let sheet = try await server.get("/storyboard/2.jpg?" + query)
            #expect(sheet.status == 200)
            #expect(sheet.headers["content-type"] == "image/jpeg")
            #expect(try ImageDecoder().decode(sheet.body).width == 128)
        }
    }

    /// A playlist in the media root that names a file out of it, by `..` or by an absolute path, is refused as
    /// `path=` would refuse the file itself, and nothing outside is read.
    @Test func aPlaylistNamingAFileOutsideTheRootIsRefused() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-stream-root-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("hls"), withIntermediateDirectories: true)
        let outside = base.appendingPathComponent("outside.ts")
        try Data(try Fixtures.bytes("h264-faststart")).write(to: outside)
        for (name, reference) in [("dots.m3u8", "../../outside.ts"), ("absolute.m3u8", outside.path)] {
            try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(reference)\n#EXT-X-ENDLIST\n"
                .write(to: root.appendingPathComponent("hls/\(name)"), atomically: true, encoding: .utf8)
        }
        var configuration = ServerConfiguration()
        configuration.mediaRoot = root.path
        try await RunningServer.with(configuration) { server in
            for name in ["dots.m3u8", "absolute.m3u8"] {
                let answer = try await server.get("/thumbnail.png?path=hls/\(name)")
                #expect(answer.status == 403, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                #expect(answer.error["error"] == "pathNotAllowed", "\(name)")
                #expect(answer.error["detail"]?.contains(base.path) != true, "the root's place on disk is not told")
            }
        }
    }

    /// A playlist under the allowed prefix gives its picture when its segments are there too; one that names a
    /// segment on another origin is answered as a refused redirect (502), and the other origin is never asked.
    @Test func aPlaylistNamingAnotherOriginIsRefused() async throws {
        let elsewhere = try await TestHTTPServer(files: ["/media/seg.m4s": try Fixtures.bytes("h264-faststart")])
        var files: [String: [UInt8]] = [:]
        let folder = Self.streams.appendingPathComponent("media3-cmaf-multi-segment")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files["/media/cmaf/" + name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        files["/media/away.m3u8"] = Array("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="/media/cmaf/video_init.mp4"
            #EXTINF:2,
            \(elsewhere.url("/media/seg.m4s"))
            #EXT-X-ENDLIST

            """.utf8)
        let origin = try await TestHTTPServer(files: files)
        defer { Task { try? await origin.shutdown(); try? await elsewhere.shutdown() } }
        try await RunningServer.with(try ThumbnailRouteTests.configuration(allowing: origin)) { server in
            let allowed = try await server.get("/thumbnail.png?url=" + origin.url("/media/cmaf/playlist.m3u8").queryEncoded + "&time=1&width=160")
            #expect(allowed.status == 200, "\(String(decoding: allowed.body, as: UTF8.self))")
            let away = try await server.get("/thumbnail.png?url=" + origin.url("/media/away.m3u8").queryEncoded)
            #expect(away.status == 502, "\(String(decoding: away.body, as: UTF8.self))")
            #expect(elsewhere.requestCount == 0)
        }
    }
}
