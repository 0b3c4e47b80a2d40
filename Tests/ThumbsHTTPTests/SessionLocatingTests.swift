import ByteSources
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// Calls that share a `MovieSession` before its movie is located share one locating, against the server's log.
@Suite(.timeLimit(.minutes(1))) struct SessionLocatingTests {
    /// A server of `h264-faststart` whose every response is held back `delay` seconds.
    static func server(delay: Double) async throws -> TestHTTPServer {
        var faults = TestHTTPServer.Faults()
        faults.responseDelay = delay
        return try await TestHTTPServer(files: ["/movie.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
    }

    @Test func callsThatComeWhileTheMovieIsLocatedWaitForThatLocating() async throws {
        let server = try await Self.server(delay: 0.2)
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/movie.mp4")
        _ = try await MovieSession(source: try HTTPByteSource(url: url)).loadMovie()
        let alone = server.requests.count
        server.resetLog()
        let session = MovieSession(source: try HTTPByteSource(url: url))
        let (first, second) = (FetchMeter(), FetchMeter())
        async let one = first.measure { try await session.loadMovie() }
        async let two = second.measure { try await session.loadMovie() }
        let movies = try await [one, two]
        #expect(movies[0].tracks.count == movies[1].tracks.count)
        #expect(server.requests.count == alone)
        // One call read the index, the other nothing.
        #expect(Set([first.statistics.requests, second.statistics.requests]) == [alone, 0])
    }

    @Test func aWaitingCallLocatesAgainWhenTheCallThatStartedIsCancelled() async throws {
        let server = try await Self.server(delay: 0.3)
        defer { Task { try? await server.shutdown() } }
        let session = MovieSession(source: try HTTPByteSource(url: server.url("/movie.mp4")))
        let starter = Task { try await session.loadMovie() }
        try await Task.sleep(for: .milliseconds(50))  // the starter's first read is held at the server
        let waiter = Task { try await session.loadMovie() }
        try await Task.sleep(for: .milliseconds(50))
        starter.cancel()
        // Whichever of the two began locating, the one not cancelled gets the movie.
        let movie = try await waiter.value
        #expect(movie.primaryVideoTrack != nil)
        switch await starter.result {
        case .success: break  // it was waiting after all, for the waiter's locating
        case .failure(let error): #expect(error is CancellationError, "\(error)")
        }
    }

    /// A call waiting for another's locating that is cancelled stops waiting: with every response held 20 s, it ends
    /// (cancelled) while the locating is still under way, whatever the load on the machine; the call that started
    /// goes on, and ends when it is cancelled too.
    @Test func aCancelledWaitingCallEndsWithoutWaitingForTheLocating() async throws {
        let server = try await Self.server(delay: 20)
        defer { Task { try? await server.shutdown() } }
        let session = MovieSession(source: try HTTPByteSource(url: server.url("/movie.mp4")))
        let starter = Task { try await session.loadMovie() }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }  // its first read is held
        let waiter = Task { try await session.loadMovie() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await !session.hasMovie)  // the locating had not ended
        starter.cancel()
        _ = await starter.result
    }
}
