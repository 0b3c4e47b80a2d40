import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `deploy/nginx.conf` as shipped (only its ports and cache folder changed) in front of two `thumbs serve`
/// replicas, over an origin nginx: identical requests reach a replica and the origin once, the cache answers repeats
/// without a replica, and a replica killed under load loses no request.
@Suite(.enabled(if: Nginx.binary != nil, "nginx is not installed"), .serialized)
struct DeployTests {
    /// A replica: `thumbs serve` allowed to read `origin`, its queue long enough for the load of these tests.
    static func replica(allowing origin: String) async throws -> ServeProcess {
        try await ServeProcess(["--allow-origin", origin, "--max-queue", "256"])
    }

    /// Thumbnail requests `replica` answered, from its own /metrics.
    static func thumbnailsAnswered(_ replica: ServeProcess) async -> Int {
        guard let metrics = await ServeProcess.get(replica.url("/metrics")) else { return -1 }
        return String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("thumbs_http_requests_total{route=\"/thumbnail.jpg\"") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }

    /// The shipped configuration with this test's front port, replicas and cache folder.
    static func frontConfiguration(port: Int, directory: String, replicas: [ServeProcess]) throws -> String {
        let shipped = try String(contentsOf: Fixtures.directory.deletingLastPathComponent().appendingPathComponent("deploy/nginx.conf"),
                                 encoding: .utf8)
        var text = shipped
        for (from, to) in [("server 127.0.0.1:8081 ", "server 127.0.0.1:\(replicas[0].port) "),
                           ("server 127.0.0.1:8082 ", "server 127.0.0.1:\(replicas[1].port) "),
                           ("listen 8080;", "listen 127.0.0.1:\(port);"),
                           ("/var/cache/nginx/thumbs", directory + "/cache")] {
            guard text.contains(from) else { throw CocoaError(.coderValueNotFound) }
            text = text.replacingOccurrences(of: from, with: to)
        }
        return text
    }

    /// An origin nginx serving the fixtures, two replicas allowed to read it, and the front nginx.
    static func withDeployment(_ body: (_ origin: Nginx, _ front: Nginx, _ replicas: [ServeProcess]) async throws -> Void) async throws {
        let origin = try #require(try Nginx(root: Fixtures.directory.path))
        let replicas = [try await replica(allowing: origin.url("")), try await replica(allowing: origin.url(""))]
        let front = try #require(try Nginx { port, directory in
            (try? frontConfiguration(port: port, directory: directory, replicas: replicas)) ?? ""
        })
        try await body(origin, front, replicas)
    }

    @Test func identicalRequestsReachOneReplicaAndTheOriginOnceAndRepeatsComeFromTheCache() async throws {
        try await Self.withDeployment { origin, front, replicas in
            // What one thumbnail costs the origin, asked of a replica directly.
            let reference = "/h264-faststart.mp4?case=\(UUID().uuidString)"
            let direct = await ServeProcess.get(replicas[0].url("/thumbnail.jpg?url=")
                                        + origin.url(String(reference.dropFirst())).queryEncoded + "&width=96")
            #expect(direct?.status == 200)
            let oneThumbnail = try await origin.sent(path: reference, awaiting: 1).requests
            let before = await Self.thumbnailsAnswered(replicas[0]) + Self.thumbnailsAnswered(replicas[1])

            let tagged = "/h264-faststart.mp4?case=\(UUID().uuidString)"
            let url = front.url("thumbnail.jpg?url=" + origin.url(String(tagged.dropFirst())).queryEncoded + "&width=96")
            let answers = await withTaskGroup(of: ServeProcess.Answer?.self) { group in
                for _ in 0..<8 { group.addTask { await ServeProcess.get(url) } }
                return await group.reduce(into: [ServeProcess.Answer?]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0?.status == 200 })
            #expect(Set(answers.compactMap { $0?.body }).count == 1)
            let after = await Self.thumbnailsAnswered(replicas[0]) + Self.thumbnailsAnswered(replicas[1])
            #expect(after - before == 1)
            #expect(try await origin.sent(path: tagged, awaiting: oneThumbnail).requests == oneThumbnail)

            for _ in 0..<5 {
                let repeated = await ServeProcess.get(url)
                #expect(repeated?.status == 200)
                #expect(repeated?.cacheStatus == "HIT")
            }
            #expect(await Self.thumbnailsAnswered(replicas[0]) + Self.thumbnailsAnswered(replicas[1]) == after)
        }
    }

    /// `/thumbnail` through the front: the browsers' Accept values that choose AVIF share one cache entry (Chrome's
    /// fills it, Firefox's is a hit), WebP's and JPEG's have their own, and an Accept that refuses AVIF with q=0 is
    /// the WebP one's hit, as the service would answer it.
    @Test func negotiatedPicturesAreCachedByTheFormatAcceptChooses() async throws {
        try await Self.withDeployment { origin, front, _ in
            let url = front.url("thumbnail?url=" + origin.url("h264-faststart.mp4?case=\(UUID().uuidString)").queryEncoded
                                + "&width=96")
            let asked: [(accept: String, type: String, cache: String)] = [
                ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "image/avif", "MISS"),
                ("image/avif,image/webp,*/*", "image/avif", "HIT"),
                ("image/webp,*/*", "image/webp", "MISS"),
                ("image/avif;q=0, image/webp", "image/webp", "HIT"),
                ("image/avif;q=0.5, image/webp;q=0.9", "image/avif", "HIT"),
                ("*/*", "image/jpeg", "MISS"),
                ("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5", "image/jpeg", "HIT"),
                ("image/avif; q =0, */*", "image/jpeg", "HIT"),
                ("image/avifx,image/webpx", "image/jpeg", "HIT"),
            ]
            for (accept, type, cache) in asked {
                let answer = await ServeProcess.get(url, accept: accept)
                #expect(answer?.status == 200, "\(accept)")
                #expect(answer?.contentType == type, "\(accept)")
                #expect(answer?.cacheStatus == cache, "\(accept)")
            }
        }
    }

    @Test func aReplicaKilledUnderLoadLosesNoRequest() async throws {
        try await Self.withDeployment { origin, front, replicas in
            let movie = origin.url("hevc-8bit.mp4").queryEncoded
            let count = 40
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                var statuses: [Int] = []
                var next = 0
                func add() {
                    let width = 40 + next
                    next += 1
                    group.addTask { await ServeProcess.get(front.url("thumbnail.jpg?url=\(movie)&width=\(width)"))?.status ?? 0 }
                }
                for _ in 0..<6 { add() }
                while let status = try await group.next() {
                    statuses.append(status)
                    if statuses.count == 5 { kill(replicas[0].process.processIdentifier, SIGKILL) }
                    if next < count { add() }
                }
                return statuses
            }
            #expect(statuses.count == count)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(!replicas[0].process.isRunning)
            #expect(await Self.thumbnailsAnswered(replicas[1]) > 0)
        }
    }
}
