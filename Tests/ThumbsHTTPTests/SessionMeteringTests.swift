import ByteSources
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// What each call on a shared `MovieSession` cost, against the server's log: calls that run side by side each count
/// their own requests and bytes, however their reads interleave.
@Suite(.timeLimit(.minutes(1))) struct SessionMeteringTests {
    /// A session of `h264-faststart` (84 KB; keyframes at 0.48 s and 0.96 s) on a server that holds every response
    /// back `delay` seconds, its index read with 16 KiB ends (so the keyframes are not among the bytes it held).
    static func session(delay: Double) async throws -> (TestHTTPServer, MovieSession) {
        var faults = TestHTTPServer.Faults()
        faults.responseDelay = delay
        let server = try await TestHTTPServer(files: ["/movie.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
        var options = MovieLocator.Options(fragmentReading: .onDemand)
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        let session = MovieSession(source: try HTTPByteSource(url: server.url("/movie.mp4")), sampleCacheBytes: 0,
                                   locator: MovieLocator(options: options))
        return (server, session)
    }

    @Test func thumbnailsMadeSideBySideCountTheirOwnReads() async throws {
        let (server, session) = try await Self.session(delay: 0.3)
        defer { Task { try? await server.shutdown() } }
        _ = try await session.loadMovie()
        let indexRequests = server.requests.count
        server.resetLog()
        let generator = ThumbnailGenerator(media: .movie(session))
        // Both keyframe reads wait 0.3 s at the server: each call's read is under way while the other's is.
        async let early = generator.image(at: .seconds(0.5))
        async let late = generator.image(at: .seconds(1.0))
        let thumbnails = try await [early, late]
        #expect(thumbnails.map(\.actualTime) == [0.48, 0.96])
        let log = server.requests
        #expect(log.count == 2)
        // Each thumbnail is one of the server's two requests: its own, not the sum of both.
        let counted = thumbnails.map { [$0.requests, Int($0.bytesFetched)] }.sorted { $0[1] < $1[1] }
        let served = log.map { [1, $0.bodyBytes] }.sorted { $0[1] < $1[1] }
        #expect(counted == served)
        #expect(await session.statistics.requests == indexRequests + 2)  // the session's: every call's
    }

    @Test func theCallThatLocatesTheIndexCountsItAndTheOthersDoNot() async throws {
        let (server, session) = try await Self.session(delay: 0)
        defer { Task { try? await server.shutdown() } }
        let generator = ThumbnailGenerator(media: .movie(session))
        let first = try await generator.image(at: .seconds(0.5))
        #expect(first.requests == server.requests.count)
        #expect(first.bytesFetched == UInt64(server.bodyBytes))
        server.resetLog()
        let second = try await generator.image(at: .seconds(1.0))
        #expect(second.requests == server.requests.count)
        #expect(second.bytesFetched == UInt64(server.bodyBytes))
        #expect(second.bytesFetched < first.bytesFetched)  // no index this time
        server.resetLog()
        // No sample cache in this session: the keyframe is read again, and counted again.
        let again = try await generator.image(at: .seconds(1.0))
        #expect(again.requests == server.requests.count)
        #expect(again.bytesFetched == UInt64(server.bodyBytes))
    }
}
