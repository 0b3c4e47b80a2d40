import ByteSources
import Foundation
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

    /// Locates the movie at `url` and reads the keyframe nearest the middle, as a thumbnail would (taking it from the
    /// bytes the locator holds when they hold it).
    static func keyframe(from source: any ByteSource, movie: Movie?, headSize: Int? = nil,
                         tailSize: UInt64? = nil) async throws -> (Movie, Sample) {
        var options = MovieLocator.Options()
        if let headSize { options.headSize = headSize }
        if let tailSize { options.tailSize = tailSize }
        let located: (movie: Movie, heldBytes: HeldBytes)
        if let movie {
            located = (movie, HeldBytes())
        } else {
            let found = try await MovieLocator(options: options).locate(in: source)
            located = (found.movie, found.heldBytes)
        }
        let track = try #require(located.movie.primaryVideoTrack)
        let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: track.durationSeconds / 2),
                                         selection: .nearestKeyframe)
        let bytes = try await SampleFetcher.fetch(plan.samples, from: source, held: located.heldBytes,
                                                  maximumGap: source.coalescingGap)
        #expect(bytes[plan.target.index]?.count == Int(plan.target.size))
        return (located.movie, plan.target)
    }

    /// The Range header of a keyframe read.
    static func rangeHeader(of sample: Sample) -> String {
        "bytes=\(sample.offset)-\(sample.offset + UInt64(sample.size) - 1)"
    }

    // The fixtures (at most 110 KB) are smaller than the default head and tail together: these tests use 16 KiB
    // ends, so that the head ends inside mdat and the keyframe lies between the ends.

    /// Runs `body` with a client of its own, which knows nothing of any origin (the shared one remembers what
    /// earlier tests' servers answered, and a port may be used again), and shuts it down after. Its read timeout is
    /// two minutes: with every test target in one process on two cores, the command-line tests' synchronous process
    /// waits hold Swift's cooperative threads, and a body's consumer was seen to wait for one for more than 30 s (its
    /// first 30 KB buffered, then the read timed out and the request was retried, which the counts here would see).
    static func withFreshClient<Result>(_ body: (RangeFetchClient) async throws -> Result) async throws -> Result {
        let client = RangeFetchClient(readTimeout: .seconds(120))
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Runs `body` with a source reading fixture `name` from a fresh test server (its faults set by `origin`) through
    /// a fresh client, and shuts both down after it.
    static func withSource<Result>(_ name: String, origin: (inout TestHTTPServer.Faults) -> Void = { _ in },
                                   _ body: (HTTPByteSource, TestHTTPServer, RangeFetchClient) async throws -> Result)
        async throws -> Result {
        let server = try await Self.server()
        server.update(origin)
        do {
            let result = try await withFreshClient { client in
                try await body(HTTPByteSource(url: server.url("/\(name).mp4"), client: client), server, client)
            }
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// The kinds of origin: multipart (nginx); the whole resource for several ranges (S3, GCS, R2, Azure); 416 for
    /// several (OSS); the first range alone. The two layouts: faststart, and moov at the end.
    static let kinds: [TestHTTPServer.MultipleRangeAnswer] = [.multipart, .whole, .refused, .firstRange]

    @Test(arguments: kinds, ["h264-faststart", "h264-bframes"])
    func aFirstContactCostsTwoRoundTripsFromEveryKindOfOrigin(_ kind: TestHTTPServer.MultipleRangeAnswer, _ name: String) async throws {
        try await Self.withSource(name, origin: { $0.multipleRanges = kind }) { source, server, client in
            let (_, keyframe) = try await Self.keyframe(from: source, movie: nil, headSize: 16 * 1024, tailSize: 16 * 1024)
            // The ends as two single ranges side by side, then the keyframe and nothing else.
            #expect(Set(server.requests.prefix(2).map(\.range)) == ["bytes=0-16383", "bytes=-16384"])
            #expect(server.requests.map(\.range).last == Self.rangeHeader(of: keyframe))
            #expect(server.requests.map(\.status) == [206, 206, 206])
            #expect(await source.statistics?.roundTrips == 2)
            #expect(server.bodyBytes == 2 * 16384 + Int(keyframe.size))
        }
    }

    /// Origins that refuse suffix ranges, never tell the length (`Content-Range: bytes a-b/*`), both, or ignore Range
    /// entirely: the picture is the file's, in each layout.
    @Test(arguments: ["suffixes refused", "length hidden", "both", "range ignored"], ["h264-faststart", "h264-bframes", "fragmented"])
    func everyKindOfOriginGivesTheFilesPicture(_ kind: String, _ name: String) async throws {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        var locatorOptions = MovieLocator.Options(fragmentReading: .onDemand)
        locatorOptions.headSize = 16 * 1024    // ends shorter than the fixtures, so the tail matters
        locatorOptions.tailSize = 16 * 1024
        let local = try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image(at: .seconds(1.5))
        try await Self.withSource(name, origin: { faults in
            faults.refusesSuffixRanges = kind == "suffixes refused" || kind == "both"
            faults.hidesLength = kind == "length hidden" || kind == "both"
            faults.ignoresRange = kind == "range ignored"
        }) { source, server, client in
            let remote = try await ThumbnailGenerator(source: source, options: options, locator: MovieLocator(options: locatorOptions))
                .image(at: .seconds(1.5))
            #expect(remote.encoded == local.encoded)
            #expect(remote.actualTime == local.actualTime)
            if kind == "range ignored" {
                // The whole file once (kept), and the tail's copy, short enough to be on its way in full, read and dropped.
                #expect(server.requests.count == 2)
            }
        }
    }

    @Test(arguments: ["h264-faststart", "h264-bframes"])
    func anOriginKnownToAnswerMultipartCostsTwoRequests(_ name: String) async throws {
        try await Self.withSource(name) { source, server, client in
            client.rangeSupport.remember(.multipart, for: server.url("/"))
            let (_, keyframe) = try await Self.keyframe(from: source, movie: nil, headSize: 16 * 1024, tailSize: 16 * 1024)
            #expect(server.requests.map(\.range) == ["bytes=0-16383,-16384", Self.rangeHeader(of: keyframe)])
            #expect(await source.statistics?.roundTrips == 2)
            // Body bytes: both ends (with the multipart framing) and the keyframe, nothing twice.
            #expect(server.bodyBytes < 2 * 16384 + Int(keyframe.size) + 400)
        }
    }

    @Test func moovAtTheEndWithoutATailCostsThreeRoundTrips() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let source = try HTTPByteSource(url: server.url("/h264-bframes.mp4"))
        let (movie, _) = try await Self.keyframe(from: source, movie: nil, headSize: 16 * 1024, tailSize: 0)
        #expect(await source.statistics?.roundTrips == 3)
        #expect(server.requests.count == 3)
        // The second request starts where mdat ends: that is where moov is.
        #expect(server.requests[1].range?.hasPrefix("bytes=\(movie.moovOffset)-") == true)
    }

    @Test(arguments: ["h264-bframes", "h264-faststart"])
    func fileSmallerThanTheFirstReadCostsOneRoundTrip(_ name: String) async throws {
        try await Self.withSource(name) { source, server, client in
            _ = try await Self.keyframe(from: source, movie: nil)
            // The ends (80 KiB each, the length not known before) hold the whole file between them: the keyframe is
            // in it.
            #expect(server.requests.count == 2)
            #expect(server.bodyBytes == 2 * min((try Fixtures.bytes(name)).count, 80 * 1024))
            #expect(await source.statistics?.roundTrips == 1)
        }
    }

    @Test func keyframeInsideTheHeadCostsNoFurtherRequest() async throws {
        try await Self.withSource("h264-faststart") { source, server, client in
            // A head that reaches past the middle keyframe, and a tail: one round trip.
            let (_, keyframe) = try await Self.keyframe(from: source, movie: nil, headSize: 80 * 1024, tailSize: 1024)
            #expect(keyframe.offset + UInt64(keyframe.size) <= 80 * 1024)
            #expect(server.requests.map(\.status) == [206, 206])
            #expect(await source.statistics?.roundTrips == 1)
        }
    }

    /// A thumbnail of `fragmented` just after its fourth keyframe (ffprobe's), which starts the fourth subsegment,
    /// with 16 KiB ends (the head holds the first subsegment, the tail the mfra after the last) and 1 KiB moof
    /// probes: the ends, the one moof, the keyframe.
    static func fragmentedThumbnail(from source: any ByteSource, keyframe: Int = 3,
                                    offset: Double = 0.05) async throws -> (Thumbnail, Movie) {
        var options = MovieLocator.Options(fragmentReading: .onDemand)
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        options.fragmentProbeSize = 1024
        var thumbnailOptions = ThumbnailOptions()
        thumbnailOptions.maximumSize = PixelSize(width: 64, height: 64)
        let generator = ThumbnailGenerator(source: source, options: thumbnailOptions, locator: MovieLocator(options: options))
        let expected = try Fixtures.expectation("fragmented")
        let scale = Double(try #require(expected.timescale))
        let keyframes = expected.packets.filter(\.key).map { Double($0.pts) / scale }.sorted()
        let thumbnail = try await generator.image(at: .seconds(keyframes[keyframe] + offset))
        #expect(abs(thumbnail.actualTime - keyframes[keyframe]) < 0.0001)
        return (thumbnail, try await generator.loadMovie())
    }

    @Test(arguments: kinds)
    func fragmentedThumbnailCostsThreeRoundTrips(_ kind: TestHTTPServer.MultipleRangeAnswer) async throws {
        try await Self.withSource("fragmented", origin: { $0.multipleRanges = kind }) { source, server, client in
            let (thumbnail, movie) = try await Self.fragmentedThumbnail(from: source)
            let index = try #require(movie.fragmentIndex)
            #expect(movie.readSubsegments == [0, 3])  // the first from the head, for free
            let moof = index.subsegments[3].byteRange.lowerBound
            let keyframeEnd = try Self.keyframeEnd(at: thumbnail)
            let ranges = server.requests.map(\.range)
            #expect(Set(ranges.prefix(2)) == ["bytes=0-16383", "bytes=-16384"])
            #expect(ranges.dropFirst(2) == ["bytes=\(moof)-\(moof + 1023)", "bytes=\(moof + 1024)-\(keyframeEnd - 1)"])
            #expect(await source.statistics?.roundTrips == 3)
        }
    }

    @Test func aTimeJustBeforeAFragmentsKeyframeReadsBothMoofsInOneRoundTrip() async throws {
        try await Self.withSource("fragmented") { source, server, client in
            // Just before the fifth keyframe: the fourth subsegment plays then, and the fifth's keyframe is nearer.
            let (thumbnail, movie) = try await Self.fragmentedThumbnail(from: source, keyframe: 4, offset: -0.05)
            let index = try #require(movie.fragmentIndex)
            #expect(movie.readSubsegments == [0, 3, 4])
            let (third, fourth) = (index.subsegments[3].byteRange.lowerBound, index.subsegments[4].byteRange.lowerBound)
            let keyframeEnd = try Self.keyframeEnd(at: thumbnail)
            // Two probes are not worth asking an origin not known to answer multipart for together: side by side.
            let ranges = server.requests.map(\.range)
            #expect(Set(ranges.dropFirst(2).prefix(2)) == ["bytes=\(third)-\(third + 1023)", "bytes=\(fourth)-\(fourth + 1023)"])
            #expect(ranges.last == "bytes=\(fourth + 1024)-\(keyframeEnd - 1)")
            #expect(await source.statistics?.roundTrips == 3)
        }
    }

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
    func fragmentedThumbnailCostsThreeRoundTripsToNginx() async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let (url, target) = Self.taggedURL(nginx, "fragmented")
        try await Self.withFreshClient { client in
            let source = try HTTPByteSource(url: url, client: client)
            let (thumbnail, _) = try await Self.fragmentedThumbnail(from: source)
            #expect(try await nginx.sent(path: target, awaiting: 4).requests == 4)
            let sent = nginx.sent(path: target)
            #expect(await source.statistics?.roundTrips == 3)
            // Both ends, a moof's probe and the rest of the keyframe: nothing twice.
            let keyframe = try #require(try Fixtures.expectation("fragmented").packets.first {
                $0.pos + UInt64($0.size) == (try? Self.keyframeEnd(at: thumbnail))
            })
            #expect(sent.bytes <= 2 * 16384 + 1024 + Int(keyframe.size))
        }
    }

    /// Where the key packet shown at `thumbnail`'s time ends in the fixture (ffprobe's pos and size).
    static func keyframeEnd(at thumbnail: Thumbnail) throws -> UInt64 {
        let expected = try Fixtures.expectation("fragmented")
        let scale = Double(try #require(expected.timescale))
        let packet = try #require(expected.packets.first { $0.key && abs(Double($0.pts) / scale - thumbnail.actualTime) < 0.0001 })
        return packet.pos + UInt64(packet.size)
    }

    static let nginx: Nginx? = try? Nginx(root: Fixtures.directory.path)

    /// A URL of fixture `name` on `nginx` that no other test asks for (a query nginx ignores), and the request target
    /// its access log shows, so that tests running side by side do not count each other's requests.
    static func taggedURL(_ nginx: Nginx, _ name: String) -> (url: String, target: String) {
        let target = "/" + Fixtures.fileName(name) + "?case=" + UUID().uuidString
        return (nginx.url(String(target.dropFirst())), target)
    }

    /// Each layout against nginx on first contact (the ends as two ranges side by side): faststart and moov at
    /// the end 2 round trips (16 KiB ends, so the keyframe lies between them), a file shorter than the default
    /// ends 1; and once nginx is known to answer several ranges at once, one request a round trip.
    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"),
          arguments: [("h264-faststart", 16 * 1024, 2), ("h264-bframes", 16 * 1024, 2), ("h264-bframes", 80 * 1024, 1)],
          [false, true])
    func eachLayoutCostsItsRoundTripsToNginx(_ layout: (name: String, ends: Int, roundTrips: Int), known: Bool) async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let (url, target) = Self.taggedURL(nginx, layout.name)
        try await Self.withFreshClient { client in
            if known { client.rangeSupport.remember(.multipart, for: url) }
            let source = try HTTPByteSource(url: url, client: client)
            _ = try await Self.keyframe(from: source, movie: nil, headSize: layout.ends, tailSize: UInt64(layout.ends))
            let requests = known ? layout.roundTrips : layout.roundTrips + 1
            let stats = try #require(await source.statistics)
            let log = stats.log.map { "\($0.start)-\($0.end.map(String.init) ?? "") \($0.status) \($0.bytes) try \($0.attempt) \($0.elapsed)" }
            #expect(try await nginx.sent(path: target, awaiting: requests).requests == requests, "\(log)")
            #expect(stats.requests == requests, "\(log)")
            #expect(stats.roundTrips == layout.roundTrips, "\(log)")
        }
    }

    /// Reads the keyframe nearest the middle of `session`'s movie, as a thumbnail would.
    static func keyframe(of session: MovieSession) async throws -> Sample {
        let track = try #require(try await session.loadMovie().primaryVideoTrack)
        let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: track.durationSeconds / 2),
                                         selection: .nearestKeyframe)
        let bytes = try await session.bytes(of: plan.samples)
        #expect(bytes[plan.target.index]?.count == Int(plan.target.size))
        return plan.target
    }

    /// A locator reading 16 KiB ends: the fixtures' keyframes are not among the bytes it holds.
    static let smallEnds: MovieLocator = {
        var options = MovieLocator.Options(fragmentReading: .onDemand)
        options.headSize = 16 * 1024
        options.tailSize = 16 * 1024
        return MovieLocator(options: options)
    }()

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"))
    func aKeptIndexCostsOneRequestToNginx() async throws {
        let nginx = try #require(Self.nginx, "nginx is installed but did not start")
        let indexes = MovieIndexCache()
        let (url, target) = Self.taggedURL(nginx, "h264-bframes")
        let input = try HTTPInput(url: url)
        _ = try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { try await Self.keyframe(of: $0) }
        let before = try await nginx.sent(path: target, awaiting: 1).requests
        try await MovieSession.withSession(of: input, indexes: indexes) { session in
            #expect(session.indexWasGiven)
            _ = try await Self.keyframe(of: session)
        }
        #expect(try await nginx.sent(path: target, awaiting: before + 1).requests - before == 1)
    }

    @Test func aKeptIndexCostsOneRoundTripAndNoMoovBytes() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let indexes = MovieIndexCache()
        let input = try HTTPInput(url: server.url("/h264-bframes.mp4"))
        try await MovieSession.withSession(of: input, indexes: indexes) { session in
            #expect(!session.indexWasGiven)
            _ = try await Self.keyframe(of: session)
        }
        server.resetLog()
        try await MovieSession.withSession(of: input, indexes: indexes) { session in
            #expect(session.indexWasGiven)
            let keyframe = try await Self.keyframe(of: session)
            #expect(await session.statistics.roundTrips == 1)
            #expect(server.requests.count == 1)
            #expect(server.bodyBytes == Int(keyframe.size))
            #expect(server.requests.first?.ifRange != nil)
        }
    }

    @Test func aChangedFileIsReadAgainAndItsNewIndexKept() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let indexes = MovieIndexCache()
        let input = try HTTPInput(url: server.url("/h264-faststart.mp4"))
        _ = try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { try await Self.keyframe(of: $0) }
        let first = try #require(await indexes.entry(for: input.identity)).known
        // The file is replaced: a new ETag from now on.
        let served = server.requests.count
        server.update { $0.changeETagAfterRequests = served }
        var sessions: [MovieSession] = []
        try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { session in
            sessions.append(session)
            _ = try await Self.keyframe(of: session)
        }
        // The kept index met the new version at its first read (If-Range: the whole new file came back and was
        // refused); the second session read the index again and kept it, of the new version.
        #expect(sessions.map(\.indexWasGiven) == [true, false])
        let second = try #require(await indexes.entry(for: input.identity)).known
        #expect(second.version != first.version)
        // Without a read in the work, the kept index is checked with one byte first: replaced by another movie (of
        // another length, so another ETag), it is read again.
        server.replace("/h264-faststart.mp4", with: try Fixtures.bytes("hevc-8bit"))
        server.resetLog()
        var infoSessions: [MovieSession] = []
        try await MovieSession.withSession(of: input, indexes: indexes, revalidates: true) { session in
            infoSessions.append(session)
            _ = try await session.loadMovie()
        }
        // The check was refused before the work ran: the work ran once, on a session that read the index again.
        let check = try #require(server.requests.first)
        #expect(check.range == "bytes=0-0" && check.ifRange != nil && check.status == 200, "\(check)")
        try #require(infoSessions.map(\.indexWasGiven) == [false])
        #expect(try await infoSessions[0].loadMovie().primaryVideoTrack?.samples.count
                == MovieParser.parse(fileBytes: Fixtures.bytes("hevc-8bit")).primaryVideoTrack?.samples.count)
    }

    @Test func aFileReplacedBetweenTheIndexAndTheKeyframeIsReadAgainOnce() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let input = try HTTPInput(url: server.url("/h264-faststart.mp4"))
        // How many requests locating takes, on its own.
        _ = try await MovieLocator(options: Self.smallEnds.options).locate(in: input.open(known: nil))
        let locating = server.requests.count
        // Replaced right after the session below has read the index (the server numbers every request since it
        // started): the keyframe read meets the new version.
        server.update { $0.changeETagAfterRequests = 2 * locating }
        let indexes = MovieIndexCache()
        var sessions: [MovieSession] = []
        try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { session in
            sessions.append(session)
            _ = try await Self.keyframe(of: session)
        }
        #expect(sessions.map(\.indexWasGiven) == [false, false])
        let kept = try #require(await indexes.entry(for: input.identity))
        #expect(kept.known.version?.contains("v2") == true, "\(kept.known)")
    }

    @Test func aKeptIndexKeepsTheFragmentsReadSince() async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        let indexes = MovieIndexCache()
        let input = try HTTPInput(url: server.url("/fragmented.mp4"))
        try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { session in
            let movie = try await session.loadMovie()
            #expect(movie.hasUnreadFragments)
        }
        try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { session in
            #expect(session.indexWasGiven)
            _ = try await session.loadCompleteMovie()
        }
        #expect(try #require(await indexes.entry(for: input.identity)?.movie).hasUnreadFragments == false)
        server.resetLog()
        try await MovieSession.withSession(of: input, indexes: indexes, locator: Self.smallEnds) { session in
            _ = try await session.loadCompleteMovie()
        }
        #expect(server.requests.isEmpty)  // every fragment is in the kept index now
    }

    @Test(arguments: Fixtures.names)
    func everyFixtureParsesTheSameOverHTTP(_ name: String) async throws {
        let server = try await Self.server()
        defer { Task { try? await server.shutdown() } }
        // The server answers several ranges at once and the shared client is told so: the ends come in one read, as
        // from the file (a first contact reads them side by side: a file between one end and both is then two reads).
        RangeFetchClient.shared.rangeSupport.remember(.multipart, for: server.url("/"))
        let overHTTP = try await MovieLocator().locate(in: HTTPByteSource(url: server.url("/\(name).mp4")))
        let local = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name)))
        #expect(overHTTP.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] } == local.reads.map { [$0.range.lowerBound, UInt64($0.byteCount)] })
        #expect(overHTTP.movie.tracks.map(\.samples.count) == local.movie.tracks.map(\.samples.count))
        #expect(overHTTP.movie.moovOffset == local.movie.moovOffset)
    }
}
