import ByteSources
import Foundation
import Matroska
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// Matroska and WebM files from real origins (nginx, an S3-compatible store) and from a server that counts every
/// request: the file's own pictures, and an index kept between pictures (in memory, on disk) as a movie's is, so a
/// later picture reads neither the index nor a search's probes again.
@Suite(.timeLimit(.minutes(2)))
struct MatroskaOriginTests {
    /// chromium's 60 s VP9 recording: no Cues, no Duration; a time is found by a search over its Clusters.
    static let recording = "chromium-vp9-60s.webm"

    static func path(_ name: String) -> String { Fixtures.directory.appendingPathComponent("matroska/\(name)").path }

    static func server() async throws -> TestHTTPServer {
        try await TestHTTPServer(files: ["/\(recording)": [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(recording))))])
    }

    static var options: ThumbnailOptions {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        return options
    }

    /// The picture at `time` of `input`, its index kept in `indexes`.
    static func picture(_ input: any MovieInput, at time: Double, indexes: (any MovieIndexStore)? = nil) async throws -> Thumbnail {
        try await Media.withMedia(of: input, indexes: indexes) { media in
            try await ThumbnailGenerator(media: media, options: options).image(at: .seconds(time))
        }
    }

    /// The requests the server answered since `start`.
    static func requests(_ server: TestHTTPServer, since start: Int) -> [TestHTTPServer.Request] {
        Array(server.requests.dropFirst(start))
    }

    @Test func aKeptIndexReadsNeitherTheIndexNorTheSearchAgain() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let input = try HTTPInput(url: server.url("/\(Self.recording)"))
        let indexes = MovieIndexCache()
        let first = try await Self.picture(input, at: 30, indexes: indexes)
        let firstRequests = server.requests
        let kept = try #require(await indexes.entry(for: input.identity)?.matroska)
        // The search's Clusters are kept beside those the ends held.
        let located = try MatroskaLocator().locate(in: Self.held(Self.recording), length: nil)
        #expect(kept.clusters.count > MatroskaIndex(located: located).clusters.count)

        let second = try await Self.picture(input, at: 30, indexes: indexes)
        let secondRequests = Self.requests(server, since: firstRequests.count)
        #expect(second.encoded == first.encoded && second.actualTime == first.actualTime)
        // The keyframe's Cluster alone: no ends, no probes.
        #expect(secondRequests.count <= 2 && secondRequests.count < firstRequests.count,
                "\(firstRequests.map { $0.range ?? "" }) then \(secondRequests.map { $0.range ?? "" })")
        #expect(secondRequests.allSatisfy { $0.status == 206 && $0.ifRange != nil && !($0.range ?? "").hasPrefix("bytes=0-") },
                "\(secondRequests.map { ($0.range ?? "", $0.status) })")
        // The picture is the file's.
        let local = try await Self.picture(FileInput(path: Self.path(Self.recording)), at: 30)
        #expect(second.encoded == local.encoded)
    }

    /// The file's first 64 KiB and last 64 KiB, as the locator reads them.
    static func held(_ name: String) throws -> HeldBytes {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
        var held = HeldBytes()
        held.insert(Array(bytes.prefix(64 << 10)), at: 0)
        held.insert(Array(bytes.suffix(64 << 10)), at: UInt64(bytes.count - (64 << 10)))
        return held
    }

    @Test func anIndexKeptOnDiskServesTheNextProcess() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let input = try HTTPInput(url: server.url("/\(Self.recording)"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matroska-index-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await Self.picture(input, at: 45, indexes: try MovieIndexDirectory(path: folder))
        let firstCount = server.requests.count
        // Another process: a directory object of its own, the same files.
        let directory = try MovieIndexDirectory(path: folder)
        let entry = try #require(await directory.entry(for: input.identity))
        let index = try #require(entry.matroska)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(Self.recording))))
        let located = try MatroskaLocator().locate(in: Self.held(Self.recording), length: UInt64(bytes.count))
        #expect(index.file == located.file)
        #expect(entry.known.length == UInt64(bytes.count) && entry.known.version != nil)
        // The Clusters the search found are Clusters of the file, at the times their headers say.
        for cluster in index.clusters {
            let start = Int(cluster.offset)
            #expect(Array(bytes[start ..< start + 4]) == [0x1F, 0x43, 0xB6, 0x75], "\(cluster)")
            let found = MatroskaClusterSearch.clusters(in: Array(bytes[start ..< min(bytes.count, start + 64)]), at: cluster.offset,
                                                       before: UInt64(bytes.count))
            #expect(found.first == cluster)
        }
        let second = try await Self.picture(input, at: 45, indexes: directory)
        let secondRequests = Self.requests(server, since: firstCount)
        #expect(second.encoded == first.encoded)
        #expect(secondRequests.count <= 2, "\(secondRequests.map { $0.range ?? "" })")
    }

    @Test func aFileReplacedUnderAKeptIndexIsReadAgain() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let input = try HTTPInput(url: server.url("/\(Self.recording)"))
        let indexes = MovieIndexCache()
        let first = try await Self.picture(input, at: 30, indexes: indexes)
        let before = try #require(await indexes.entry(for: input.identity)).known
        let served = server.requests.count
        server.update { $0.changeETagAfterRequests = served }
        let second = try await Self.picture(input, at: 30, indexes: indexes)
        #expect(second.encoded == first.encoded)
        let after = try #require(await indexes.entry(for: input.identity)).known
        #expect(after != before && after.version?.contains("v2") == true, "\(before) then \(after)")
    }

    /// From nginx, every Matroska and WebM fixture gives the file's picture, read in ranges.
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"),
          arguments: ["h264-bframes.cues-back.mkv", "hevc-8bit.mkvmerge-nocues.mkv", "vp9-8bit.live.webm", recording])
    func fromNginxThePictureIsTheFiles(_ name: String) async throws {
        try await OriginPictures.fromNginx("matroska/\(name)") { try await Self.picture($0, at: 1.5) }
    }

    /// From an S3-compatible store (every request signed), the recording's picture at 30 s is the file's.
    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"))
    func fromTheStoreThePictureIsTheFiles() async throws {
        try await OriginPictures.fromTheStore(key: "clips/recording +1.webm", fixture: "matroska/\(Self.recording)") {
            try await Self.picture($0, at: 30)
        }
    }

    /// DASH with WebM from nginx: the manifest, the Initialization and index ranges it names (one read when they touch,
    /// as with the Cues before the Clusters), then the keyframe's block: no other bytes of the file.
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"),
          arguments: [("vp9-cues-front", 2), ("vp9-cues-back", 3)])
    func dashWithWebMReadsTheRangesTheManifestNames(_ layout: String, _ fileRequests: Int) async throws {
        let nginx = try #require(RoundTripTests.nginx, "nginx is installed but did not start")
        let reference = try #require(MatroskaReferences.all.first { $0.name == "vp9-8bit.cues-back.webm" })
        let folder = "matroska/dash/\(layout)"
        // Only this test asks nginx for these files (one layout per case).
        let target = "/\(folder)/video.webm"
        let before = nginx.sent(path: target)
        let input = try HTTPInput(url: nginx.url("\(folder)/manifest.mpd"))
        let made = try await Self.picture(input, at: 1.5)
        #expect(abs(made.actualTime - 1.44) < 0.0005)
        let sent = try await nginx.sent(path: target, awaiting: fileRequests, since: before)
        #expect(sent.requests == fileRequests)
        // The head and the Cues (a few hundred bytes), and the keyframe's block read with the first guess (16 KiB at
        // least) and at most once more.
        let keyframe = try #require(reference.videoPackets.first { $0.pts == 1440 && $0.isKeyframe })
        let bound = 1024 + Int(1.5 * Double(max(16 << 10, keyframe.size)))
        #expect(sent.bytes <= bound, "\(sent.bytes) bytes, bound \(bound)")
        let log = nginx.accessLog.filter { $0.contains("\"GET \(target) ") }.suffix(sent.requests)
        #expect(log.allSatisfy { $0.contains("\" 206 ") }, "\(log)")
    }
}
