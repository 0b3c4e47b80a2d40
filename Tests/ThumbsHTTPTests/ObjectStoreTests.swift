import ByteSources
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Storyboards
import Testing
import Thumbs

/// Thumbnails and storyboards from a real S3-compatible server (moto, checking every Signature Version 4): the
/// same picture as from the file, in the round trips and bytes of any other origin.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), .timeLimit(.minutes(2)))
struct ObjectStoreTests {
    static let names = ["h264-faststart", "h264-bframes", "fragmented"]
    static func input(_ name: String, client: RangeFetchClient) async throws -> S3Input {
        let store = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: store.endpoint,
                                            credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        return try S3Input(url: "s3://\(store.bucket)/\(name) +1.mp4", configuration: configuration, client: client)
    }

    @Test(arguments: names)
    func aThumbnailFromTheStoreIsTheFilesInTwoRoundTrips(_ name: String) async throws {
        try await RoundTripTests.withFreshClient { client in
            var options = ThumbnailOptions()
            options.maximumSize = PixelSize(width: 160, height: 160)
            let source = try await Self.input(name, client: client).open(known: nil)
            var locatorOptions = MovieLocator.Options(fragmentReading: .onDemand)
            locatorOptions.headSize = 16 * 1024    // the fixtures are small: ends that leave the keyframe between them
            locatorOptions.tailSize = 16 * 1024
            let remote = try await ThumbnailGenerator(source: source, options: options, locator: MovieLocator(options: locatorOptions))
                .image(at: .seconds(1.5))
            let local = try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image(at: .seconds(1.5))
            #expect(remote.encoded == local.encoded)
            #expect(remote.actualTime == local.actualTime)
            let stats = try #require(await source.statistics)
            #expect(stats.roundTrips <= (name == "fragmented" ? 3 : 2), "\(stats.log)")
            #expect(stats.log.allSatisfy { $0.status == 206 }, "\(stats.log)")
        }
    }

    /// An HLS stream in the store (FFmpeg's cuts of h264-bframes, each request signed): the picture at 1.5 s is the
    /// movie's keyframe nearest it that the stream knows (fMP4: 1.44 s inside its second segment; TS: the segment
    /// starting at 1.44 s), the same bytes as the file's thumbnail of that time; read in the playlist, the init
    /// segment, the moof and the keyframe (fMP4), or the playlist and the segment's start (TS).
    @Test(arguments: [("ffmpeg-hls-fmp4-h264-bframes", 4), ("ffmpeg-hls-ts-h264-bframes", 2)])
    func aStreamFromTheStoreIsTheMoviesPicture(_ folder: String, _ requests: Int) async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: store.endpoint,
                                            credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        let (made, log) = try await RoundTripTests.withFreshClient { client in
            let input = try S3Input(url: "s3://\(store.bucket)/streams/\(folder)/index.m3u8", configuration: configuration, client: client)
            let generator = ThumbnailGenerator(media: .stream(StreamSession(input: input)), options: options)
            return (try await generator.image(at: .seconds(1.5)), await generator.statistics.log)
        }
        #expect(abs(made.actualTime - 1.44) < 0.001, "\(made.actualTime) s")
        var exact = options
        exact.requestedTimeToleranceBefore = .zero
        exact.requestedTimeToleranceAfter = .zero
        let local = try await ThumbnailGenerator(path: Fixtures.path("h264-bframes"), options: exact).image(at: .seconds(1.44))
        #expect(made.encoded == local.encoded)
        #expect(made.requests == requests, "\(log.map { ($0.start, $0.end ?? 0, $0.status) })")
        #expect(log.allSatisfy { $0.status == 206 }, "\(log.map { ($0.start, $0.end ?? 0, $0.status) })")
    }

    @Test func aStoryboardFromTheStoreReadsTheIndexAndTheKeyframesAlone() async throws {
        let name = "h264-bframes"
        try await RoundTripTests.withFreshClient { client in
            var options = StoryboardOptions()
            options.interval = .milliseconds(250)
            var locatorOptions = MovieLocator.Options()
            locatorOptions.headSize = 16 * 1024
            locatorOptions.tailSize = 16 * 1024
            let source = try await Self.input(name, client: client).open(known: nil)
            var files: [String: [UInt8]] = [:]
            let storyboard = try await StoryboardMaker(source: source, options: options, locator: MovieLocator(options: locatorOptions))
                .make { file, bytes in files[file] = bytes }
            var expectedFiles: [String: [UInt8]] = [:]
            _ = try await StoryboardMaker(source: FileByteSource(path: Fixtures.path(name)), options: options,
                                          locator: MovieLocator(options: locatorOptions))
                .make { file, bytes in expectedFiles[file] = bytes }
            #expect(files == expectedFiles)
            let stats = try #require(await source.statistics)
            // The ends (16 KiB each), the moov beyond them, and the keyframes used: within 5 % of them, whatever
            // moto answers several ranges with.
            let boxes = try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name))).topLevelBoxes
            let index = UInt64(2 * 16 * 1024) + (boxes.first { $0.type == "moov" }?.size ?? 0)
            #expect(Double(stats.bytes) <= Double(index + storyboard.keyframeBytes) * 1.05, "\(stats.log)")
        }
    }
}
