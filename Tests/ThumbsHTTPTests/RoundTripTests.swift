import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// What locating the index and reading one keyframe costs over HTTP, counted by the server.
@Suite(.timeLimit(.minutes(1))) struct RoundTripTests {
    static func server() async throws -> TestHTTPServer {
        var files: [String: [UInt8]] = [:]
        for name in Fixtures.names { files["/\(name).mp4"] = try Fixtures.bytes(name) }
        return try await TestHTTPServer(files: files)
    }

    /// Locates the movie at `url` and reads the keyframe nearest the middle, as a thumbnail would.
    static func keyframe(from source: any ByteSource, movie: Movie?, headSize: Int? = nil) async throws -> (Movie, Sample) {
        var options = MovieLocator.Options()
        if let headSize { options.headSize = headSize }
        let locator = MovieLocator(options: options)
        let movie = try await { () async throws -> Movie in
            if let movie { return movie }
            return try await locator.locate(in: source).movie
        }()
        let track = try #require(movie.primaryVideoTrack)
        let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: track.durationSeconds / 2),
                                         selection: .nearestKeyframe)
        let bytes = try await SampleFetcher.fetch(plan.samples, from: source, maximumGap: source.coalescingGap)
        #expect(bytes[plan.target.index]?.count == Int(plan.target.size))
        return (movie, plan.target)
    }

    @Test func faststartThumbnailCostsTwoRoundTrips() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/h264-faststart.mp4"))
        let (movie, keyframe) = try await Self.keyframe(from: source, movie: nil)
        let stats = try #require(await source.statistics)
        #expect(stats.roundTrips == 2)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.method == "GET" })
        // The second request is the keyframe and nothing else.
        #expect(server.requests[1].range == "bytes=\(keyframe.offset)-\(keyframe.offset + UInt64(keyframe.size) - 1)")
        #expect(movie.moovOffset < 100)
    }

    @Test func moovAtTheEndThumbnailCostsThreeRoundTrips() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/h264-bframes.mp4"))
        // The fixture (84 KB) is smaller than the default head: use a head that ends inside mdat.
        let (movie, _) = try await Self.keyframe(from: source, movie: nil, headSize: 16 * 1024)
        #expect(await source.statistics?.roundTrips == 3)
        #expect(server.requests.count == 3)
        // The second request starts where mdat ends: that is where moov is.
        let moovStart = movie.moovOffset
        #expect(server.requests[1].range?.hasPrefix("bytes=\(moovStart)-") == true)
    }

    @Test func cachedIndexCostsOneRoundTripAndNoMoovBytes() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let cache = MovieIndexCache()
        let url = server.url("/h264-bframes.mp4")
        let first = try await cache.open(HTTPInput(url: url))
        #expect(!first.cached)
        _ = try await Self.keyframe(from: first.source, movie: first.movie)
        server.resetLog()
        let second = try await cache.open(HTTPInput(url: url))
        #expect(second.cached)
        let (_, keyframe) = try await Self.keyframe(from: second.source, movie: second.movie)
        #expect(await second.source.statistics?.roundTrips == 1)
        #expect(server.requests.count == 1)
        #expect(server.bodyBytes == Int(keyframe.size))
        #expect(server.requests.first?.ifRange != nil)
    }

    @Test func changedFileInvalidatesTheCachedIndex() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let cache = MovieIndexCache()
        let url = server.url("/h264-faststart.mp4")
        _ = try await cache.open(HTTPInput(url: url))
        // The file is replaced: a new ETag from now on.
        let served = server.requests.count
        server.update { $0.changeETagAfterRequests = served }
        let reopened = try await cache.open(HTTPInput(url: url))
        do {
            _ = try await Self.keyframe(from: reopened.source, movie: reopened.movie)
            Issue.record("a changed file was read with a stale index")
        } catch let error as FetchError {
            #expect(error.code == .resourceChanged)
            await cache.invalidate(try HTTPInput(url: url).identity)
        }
        let fresh = try await cache.open(HTTPInput(url: url))
        #expect(!fresh.cached)
        _ = try await Self.keyframe(from: fresh.source, movie: fresh.movie)
    }

    @Test(arguments: Fixtures.names)
    func everyFixtureParsesTheSameOverHTTP(_ name: String) async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let overHTTP = try await MovieLocator().locate(in: HTTPByteSource(url: server.url("/\(name).mp4")))
        let local = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name)))
        #expect(overHTTP.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] } == local.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] })
        #expect(overHTTP.movie.tracks.map(\.samples.count) == local.movie.tracks.map(\.samples.count))
        #expect(overHTTP.movie.moovOffset == local.movie.moovOffset)
    }
}
