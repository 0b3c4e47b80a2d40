import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `deploy/nginx.conf` as shipped (only its ports and cache folder changed) in front of two `thumbs serve`
/// replicas, over an origin nginx: identical requests reach a replica and the origin once, the cache answers repeats
/// without a replica, and a replica killed under load loses no request.
@Suite(.enabled(if: Nginx.binary != nil, "nginx is not installed"), .serialized)
struct DeployTests {
    /// A `thumbs serve` process.
    final class Replica: @unchecked Sendable {
        // @unchecked: `process` is set in init and only read after; Process itself is thread-safe for these calls.
        let port: Int
        let process = Process()

        init(allowing origin: String) async throws {
            port = try Nginx.freePort()
            process.executableURL = InfoCommandTests.binary
            process.arguments = ["serve", "--port", String(port), "--allow-origin", origin, "--max-queue", "256"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<100 {
                if await DeployTests.get("http://127.0.0.1:\(port)/healthz")?.status == 200 { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            process.terminate()
            throw POSIXError(.ETIMEDOUT)
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// Thumbnail requests this replica answered, from its own /metrics.
        func thumbnailsAnswered() async -> Int {
            guard let metrics = await DeployTests.get("http://127.0.0.1:\(port)/metrics") else { return -1 }
            return String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
                .filter { $0.hasPrefix("thumbs_http_requests_total{route=\"/thumbnail.jpg\"") }
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
        }
    }

    struct Answer {
        var status: Int
        var body: Data
        var cacheStatus: String?
    }

    static func get(_ url: String) async -> Answer? {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 60
        guard let (data, response) = try? await URLSession.shared.data(for: request), let http = response as? HTTPURLResponse else {
            return nil
        }
        return Answer(status: http.statusCode, body: data, cacheStatus: http.value(forHTTPHeaderField: "X-Cache-Status"))
    }

    /// The shipped configuration with this test's front port, replicas and cache folder.
    static func frontConfiguration(port: Int, directory: String, replicas: [Replica]) throws -> String {
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
    static func withDeployment(_ body: (_ origin: Nginx, _ front: Nginx, _ replicas: [Replica]) async throws -> Void) async throws {
        let origin = try #require(try Nginx(root: Fixtures.directory.path))
        let replicas = [try await Replica(allowing: origin.url("")), try await Replica(allowing: origin.url(""))]
        let front = try #require(try Nginx { port, directory in
            (try? frontConfiguration(port: port, directory: directory, replicas: replicas)) ?? ""
        })
        try await body(origin, front, replicas)
    }

    @Test func identicalRequestsReachOneReplicaAndTheOriginOnceAndRepeatsComeFromTheCache() async throws {
        try await Self.withDeployment { origin, front, replicas in
            // What one thumbnail costs the origin, asked of a replica directly.
            let reference = "/h264-faststart.mp4?case=\(UUID().uuidString)"
            let direct = await Self.get("http://127.0.0.1:\(replicas[0].port)/thumbnail.jpg?url="
                                        + origin.url(String(reference.dropFirst())).queryEncoded + "&width=96")
            #expect(direct?.status == 200)
            let oneThumbnail = try await origin.sent(path: reference, awaiting: 1).requests
            let before = await replicas[0].thumbnailsAnswered() + replicas[1].thumbnailsAnswered()

            let tagged = "/h264-faststart.mp4?case=\(UUID().uuidString)"
            let url = front.url("thumbnail.jpg?url=" + origin.url(String(tagged.dropFirst())).queryEncoded + "&width=96")
            let answers = await withTaskGroup(of: Answer?.self) { group in
                for _ in 0..<8 { group.addTask { await Self.get(url) } }
                return await group.reduce(into: [Answer?]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0?.status == 200 })
            #expect(Set(answers.compactMap { $0?.body }).count == 1)
            let after = await replicas[0].thumbnailsAnswered() + replicas[1].thumbnailsAnswered()
            #expect(after - before == 1)
            #expect(try await origin.sent(path: tagged, awaiting: oneThumbnail).requests == oneThumbnail)

            for _ in 0..<5 {
                let repeated = await Self.get(url)
                #expect(repeated?.status == 200)
                #expect(repeated?.cacheStatus == "HIT")
            }
            #expect(await replicas[0].thumbnailsAnswered() + replicas[1].thumbnailsAnswered() == after)
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
                    group.addTask { await Self.get(front.url("thumbnail.jpg?url=\(movie)&width=\(width)"))?.status ?? 0 }
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
            #expect(await replicas[1].thumbnailsAnswered() > 0)
        }
    }
}
