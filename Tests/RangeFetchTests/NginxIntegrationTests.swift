import Foundation
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing

/// The parser over a real nginx: the same movie as from the file, with the expected requests.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NginxIntegrationTests {
    static let nginx: Nginx? = try? Nginx(root: Fixtures.directory.path)

    @Test func nginxIsAvailable() {
        if Nginx.binary == nil {
            print("SKIPPED: nginx is not installed; scripts/install-deps.sh installs it")
        }
        #expect(Nginx.binary == nil || Self.nginx != nil, "nginx is installed but did not start")
    }

    @Test(arguments: Fixtures.names)
    func locatingOverNginxMatchesTheFile(_ name: String) async throws {
        guard let nginx = Self.nginx else { return }
        let path = "GET /\(Fixtures.fileName(name)) "
        func logged() -> Int { nginx.accessLog.filter { $0.contains(path) }.count }
        let before = logged()
        let source = try HTTPByteSource(url: nginx.url(Fixtures.fileName(name)))
        let remote = try await MovieLocator().locate(in: source)
        let local = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name)))
        #expect(remote.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] } == local.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] })
        #expect(remote.movie.moovOffset == local.movie.moovOffset)
        #expect(remote.movie.tracks.map(\.samples.count) == local.movie.tracks.map(\.samples.count))
        let stats = try #require(await source.statistics)
        #expect(stats.requests == local.reads.count)
        #expect(stats.log.allSatisfy { $0.status == 206 })
        // nginx logs a request after answering it: give the log a moment.
        var count = logged() - before
        for _ in 0..<50 where count < local.reads.count {
            try await Task.sleep(nanoseconds: 20_000_000)
            count = logged() - before
        }
        #expect(count == local.reads.count)
    }
}
