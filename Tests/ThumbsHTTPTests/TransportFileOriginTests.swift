import ByteSources
import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// Bare transport stream files from real origins (nginx, an S3-compatible store) and from a server that counts every
/// request: the file's own pictures, found by a search of small probes, not by reading the file.
@Suite(.timeLimit(.minutes(2)))
struct TransportFileOriginTests {
    /// 30 s with a keyframe every 2 s and at two scene cuts, 709 KB.
    static let searched = "search-30s.ts"

    static func path(_ name: String) -> String { TransportReferences.folder.appendingPathComponent(name).path }

    static func picture(_ input: any MovieInput, at time: Double, exact: Bool = false) async throws -> Thumbnail {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        return try await Media.withMedia(of: input) { media in
            try await ThumbnailGenerator(media: media, options: options).image(at: .seconds(time))
        }
    }

    /// At keyframes and between them, exact and nearest, the picture over HTTP is the file's, in at most 14 requests
    /// (the issue's ceiling) and less than half the file's bytes.
    @Test func aSearchReadsAFewProbesNotTheFile() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(Self.searched))))
        let server = try await TestHTTPServer(files: ["/\(Self.searched)": bytes])
        defer { Task { try? await server.shutdown() } }
        let file = try #require(TransportReferences.all.first { $0.name == Self.searched })
        let keyframes = file.keyframes.map { Double($0.pts) / 90_000 }
        for (time, exact) in [(keyframes[7], false), (15.0, false), (15.0, true), (8.1, false), (29.9, true), (0.0, false)] {
            let before = server.requests.count
            let remote = try await Self.picture(try HTTPInput(url: server.url("/\(Self.searched)")), at: time, exact: exact)
            let requests = Array(server.requests.dropFirst(before))
            let local = try await Self.picture(FileInput(path: Self.path(Self.searched)), at: time, exact: exact)
            #expect(remote.encoded == local.encoded && remote.actualTime == local.actualTime, "\(time) s")
            #expect(requests.count <= 14, "\(time) s: \(requests.map { $0.range ?? "" })")
            #expect(remote.bytesFetched < UInt64(bytes.count / 2), "\(time) s: \(remote.bytesFetched) of \(bytes.count) bytes")
            #expect(requests.allSatisfy { $0.status == 206 }, "\(requests.map { ($0.range ?? "", $0.status) })")
        }
    }

    /// From nginx, the 192-byte M2TS and the searched file give the file's picture, read in ranges.
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"),
          arguments: ["h264-bframes.m2ts", searched])
    func fromNginxThePictureIsTheFiles(_ name: String) async throws {
        try await OriginPictures.fromNginx("transport/\(name)") { try await Self.picture($0, at: 1.5) }
    }

    /// From an S3-compatible store (every request signed), the searched file's picture at 20 s is the file's.
    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"))
    func fromTheStoreThePictureIsTheFiles() async throws {
        try await OriginPictures.fromTheStore(key: "recordings/search 30s.ts", fixture: "transport/\(Self.searched)") {
            try await Self.picture($0, at: 20)
        }
    }
}
