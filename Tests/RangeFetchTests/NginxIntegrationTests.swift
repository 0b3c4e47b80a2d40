import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// The parser over a real nginx: the same movie as from the file, with the expected requests.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NginxIntegrationTests {
    static let nginx: Nginx? = try? Nginx(root: Fixtures.directory.path)

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
    func installedNginxStarts() {
        #expect(Self.nginx != nil, "nginx is installed but did not start")
    }

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"), arguments: Fixtures.names)
    func locatingOverNginxMatchesTheFile(_ name: String) async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let path = "GET /\(Fixtures.fileName(name)) "
        func logged() -> Int { nginx.accessLog.filter { $0.contains(path) }.count }
        let before = logged()
        // nginx answers several ranges at once, and the shared client is told so (a first contact would ask for the
        // ends as two ranges side by side: OriginKindTests).
        RangeFetchClient.shared.rangeSupport.remember(.multipart, for: nginx.url(""))
        let source = try HTTPByteSource(url: nginx.url(Fixtures.fileName(name)))
        // Ends of 16 KiB: most fixtures are longer than both, so nginx answers the first request with both parts
        // (multipart/byteranges); a shorter one it sends whole.
        var options = MovieLocator.Options()
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        let remote = try await MovieLocator(options: options).locate(in: source)
        let local = try await MovieLocator(options: options).locate(in: FileByteSource(path: Fixtures.path(name)))
        #expect(remote.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] } == local.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] })
        #expect(remote.movie.moovOffset == local.movie.moovOffset)
        #expect(remote.movie.tracks.map(\.samples.count) == local.movie.tracks.map(\.samples.count))
        #expect(remote.heldBytes.spans == local.heldBytes.spans)
        let stats = try #require(await source.statistics)
        let longerThanTheEnds = try Fixtures.bytes(name).count > 32 * 1024
        // The file reads the ends with two reads; HTTP asks for both in one request.
        #expect(stats.requests == local.reads.count - (longerThanTheEnds ? 1 : 0))
        #expect(stats.log.first?.status == (longerThanTheEnds ? 206 : 200))
        #expect(stats.log.dropFirst().allSatisfy { $0.status == 206 })
        #expect(stats.ignoredRangeResponses == 0)
        // nginx logs a request after answering it: give the log a moment.
        var count = logged() - before
        for _ in 0..<50 where count < stats.requests {
            try await Task.sleep(nanoseconds: 20_000_000)
            count = logged() - before
        }
        #expect(count == stats.requests)
    }

    static let nginxWithoutRanges: Nginx? = try? Nginx(root: Fixtures.directory.path, ignoresRange: true)

    /// The bytes we count are the bytes nginx sent, whether it honours Range (206s) or sends whole files (200s).
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"), arguments: ["h264-faststart", "h264-bframes", "fragmented", "hevc-8bit"], [false, true])
    func theBytesCountedAreTheBytesNginxSent(_ name: String, ignoringRange: Bool) async throws {
        let nginx = try #require(ignoringRange ? Self.nginxWithoutRanges : Self.nginx, "nginx did not start")
        let path = "/" + Fixtures.fileName(name)
        let before = nginx.sent(path: path)
        let source = try HTTPByteSource(url: nginx.url(Fixtures.fileName(name)))
        // Ends shorter than the file, so that a whole answer is a Range ignored, not the file asked for.
        var options = MovieLocator.Options()
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        let movie = try await MovieLocator(options: options).locate(in: source).movie
        let track = try #require(movie.primaryVideoTrack)
        let keyframe = try #require(try track.syncSample(nearest: track.presentationTime(seconds: 1)))
        _ = try await source.read(keyframe.byteRange)
        let stats = try #require(await source.statistics)
        #expect(stats.ignoredRangeResponses == (ignoringRange ? stats.requests : 0))
        let sent = try await nginx.sent(path: path, awaiting: stats.requests, since: before)
        #expect(sent.requests == stats.requests)
        #expect(sent.bytes == Int(stats.bytes), "nginx sent \(sent.bytes), we counted \(stats.bytes)")
        #expect(sent.bytes > 0)
        if ignoringRange {
            // A first contact: the ends as two ranges side by side, each answered with the whole file (short enough
            // to be on its way in full, so both are read and counted); one is kept, so the keyframe costs no request.
            #expect(stats.requests == 2)
            let size = try #require((try FileManager.default.attributesOfItem(atPath: Fixtures.path(name))[.size] as? NSNumber)?.uint64Value)
            #expect(stats.bytes == 2 * size)
        }
    }

    /// Every sync sample of a fixture in one request: nginx answers multipart/byteranges, and each sample's bytes are
    /// the file's.
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"), arguments: ["h264-bframes", "hevc-8bit", "fragmented"])
    func severalRangesAreOneRequestToNginx(_ name: String) async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let path = "/" + Fixtures.fileName(name)
        let before = nginx.sent(path: path)
        let movie = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name))).movie
        let track = try #require(movie.primaryVideoTrack)
        let ranges = try (0..<track.samples.syncSampleCount).map {
            try track.samples.sample(at: track.samples.sampleIndex(ofSyncSample: $0)).byteRange
        }
        #expect(ranges.count > 1)
        let source = try HTTPByteSource(url: nginx.url(Fixtures.fileName(name)))
        let read = try await source.read(ranges: ranges)
        let file = try Fixtures.bytes(name)
        #expect(read == ranges.map { Array(file[Int($0.lowerBound)..<Int($0.upperBound)]) })
        #expect(await source.statistics?.requests == 1)
        let sent = try await nginx.sent(path: path, awaiting: 1, since: before)
        #expect(sent.requests == 1)
        // The samples and, for each part, its boundary and headers.
        #expect(sent.bytes < ranges.reduce(0) { $0 + $1.count } + 120 * ranges.count)
    }
}
