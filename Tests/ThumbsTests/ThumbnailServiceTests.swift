import ByteSources
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// The list-of-videos service: coalescing, cache eviction, prefetch and cancellation, asserted by counting work.
@Suite(.timeLimit(.minutes(1))) struct ThumbnailServiceTests {
    static func request(_ source: GatedByteSource, key: String = "gated", time: ThumbnailTime = .seconds(1),
                        size: Int = 64) -> ThumbnailRequest {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: size, height: size)
        options.format = .none
        return ThumbnailRequest(asset: .source(key: key) { source }, time: time, options: options)
    }

    /// `count` requests for one thumbnail of a closed gated source, started at once: they have reached the service
    /// and its one read waits at the gate.
    static func waitingRequests(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (source: GatedByteSource, service: ThumbnailService, request: ThumbnailRequest, tasks: [Task<Thumbnail, any Error>]) {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"))
        let service = ThumbnailService()
        let request = Self.request(source)
        let tasks = (0..<count).map { _ in Task { try await service.thumbnail(request) } }
        #expect(await eventually { await Self.settled(service, source, requests: count) }, sourceLocation: sourceLocation)
        return (source, service, request, tasks)
    }

    /// Whether `requests` requests reached the service and one read waits at the gate.
    static func settled(_ service: ThumbnailService, _ source: GatedByteSource, requests: Int) async -> Bool {
        let made = await service.statistics.requests
        let waiting = await source.waitingCount
        return made == requests && waiting == 1
    }

    @Test func concurrentRequestsForOneThumbnailShareOneFetchAndDecode() async throws {
        let (source, service, request, tasks) = try await Self.waitingRequests(5)
        await source.open()
        var results: [Thumbnail] = []
        for task in tasks { results.append(try await task.value) }
        let statistics = await service.statistics
        #expect(statistics.generated == 1)
        #expect(statistics.coalesced == 4)
        #expect(statistics.decodedSamples == 1)
        #expect(await source.reads == 1)  // the whole 84 KB file in the first read, and the keyframe taken from it
        #expect(Set(results.map(\.image.pixels)).count == 1)
        // A sixth request is a cache hit: no read, no decode.
        _ = try await service.thumbnail(request)
        #expect(await service.statistics.cacheHits == 1)
        #expect(await source.reads == 1)
    }

    @Test func cacheEvictsTheLeastRecentlyUsedByCost() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"), open: true)
        var configuration = ThumbnailService.Configuration()
        // A 64x48 RGB thumbnail costs 9216 bytes: room for two.
        configuration.costLimit = 2 * 64 * 48 * 3 + 100
        let service = ThumbnailService(configuration: configuration)
        let first = Self.request(source, time: .seconds(0))
        let second = Self.request(source, time: .seconds(1))
        let third = Self.request(source, time: .seconds(2))
        _ = try await service.thumbnail(first)
        _ = try await service.thumbnail(second)
        _ = try await service.thumbnail(first)  // first is now more recent than second
        _ = try await service.thumbnail(third)
        #expect(await service.cachedCount == 2)
        #expect(await service.isCached(first))
        #expect(await !service.isCached(second))
        #expect(await service.isCached(third))
        #expect(await service.cachedCost <= configuration.costLimit)
        // The index was read once and reused by the later thumbnails.
        #expect(await service.statistics.indexLoads == 1)
    }

    @Test func cacheEvictsByCount() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"), open: true)
        var configuration = ThumbnailService.Configuration()
        configuration.countLimit = 1
        let service = ThumbnailService(configuration: configuration)
        _ = try await service.thumbnail(Self.request(source, time: .seconds(0)))
        _ = try await service.thumbnail(Self.request(source, time: .seconds(2)))
        #expect(await service.cachedCount == 1)
        #expect(await service.isCached(Self.request(source, time: .seconds(2))))
    }

    @Test func prefetchedThumbnailIsMadeOnceAndServedFromTheCache() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"), open: true)
        let service = ThumbnailService()
        let request = Self.request(source)
        await service.prefetch([request])
        #expect(await eventually { await service.isCached(request) })
        _ = try await service.thumbnail(request)
        let statistics = await service.statistics
        #expect(statistics.generated == 1)
        #expect(statistics.cacheHits == 1)
    }

    @Test func requestDuringPrefetchJoinsIt() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"))
        let service = ThumbnailService()
        let request = Self.request(source)
        await service.prefetch([request])
        let waiter = Task { try await service.thumbnail(request) }
        #expect(await eventually { await service.statistics.coalesced == 1 })
        await source.open()
        _ = try await waiter.value
        #expect(await service.statistics.generated == 1)
    }

    @Test func cancellingOneOfSeveralWaitersLeavesTheWorkRunning() async throws {
        let (source, service, _, tasks) = try await Self.waitingRequests(3)
        tasks[0].cancel()
        await #expect(throws: CancellationError.self) { _ = try await tasks[0].value }
        await source.open()
        _ = try await tasks[1].value
        _ = try await tasks[2].value
        let statistics = await service.statistics
        #expect(statistics.generated == 1)
        #expect(statistics.cancelledWork == 0)
        #expect(await source.cancelledReads == 0)
    }

    @Test func cancellingEveryWaiterCancelsTheWork() async throws {
        let (source, service, request, tasks) = try await Self.waitingRequests(3)
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { _ = try await task.value } }
        #expect(await eventually { await source.cancelledReads == 1 })
        let statistics = await service.statistics
        #expect(statistics.cancelledWork == 1)
        #expect(statistics.generated == 0)
        #expect(await service.inFlightCount == 0)
        #expect(await !service.isCached(request))
    }

    /// A work that waits for another key of the same coalescer, its only waiter cancelled: both works are cancelled
    /// and the wait ends (the inner work's cancellation comes back into the coalescer while the outer's is handled).
    @Test(.timeLimit(.minutes(1))) func cancellingWorkThatWaitsForAnotherKeyOfTheSameCoalescerEnds() async throws {
        let coalescer = WorkCoalescer<Int, Int>()
        let outer = Task {
            try await coalescer.value(for: 1) {
                try await coalescer.value(for: 2) {
                    try await Task.sleep(for: .seconds(600))
                    return 2
                }
            }
        }
        #expect(await eventually { coalescer.count == 2 })
        outer.cancel()
        await #expect(throws: CancellationError.self) { try await outer.value }
        #expect(await eventually { coalescer.count == 0 })
        #expect(coalescer.cancelled == 2)
    }

    @Test func cancellingAPrefetchStopsItsWork() async throws {
        let source = GatedByteSource(try Fixtures.bytes("h264-faststart"))
        let service = ThumbnailService()
        let request = Self.request(source)
        await service.prefetch([request])
        #expect(await eventually { await source.waitingCount == 1 })
        await service.cancelPrefetch([request])
        #expect(await eventually { await source.cancelledReads == 1 })
        #expect(await service.statistics.cancelledWork == 1)
        #expect(await service.inFlightCount == 0)
    }

    @Test func cacheRespectsBothLimitsDirectly() {
        var cache = ThumbnailCache<Int>(countLimit: 3, costLimit: 1000)
        let thumbnail = { (bytes: Int) in
            Thumbnail(image: RGBImage(width: 1, height: bytes / 3, pixelFormat: .rgb8, pixels: [UInt8](repeating: 0, count: bytes)),
                      encoded: [], requestedTime: 0, actualTime: 0, keyframeTime: 0, isSyncSample: true, orientation: .identity,
                      isCoverArt: false, decodedSamples: 1, bytesFetched: 0, requests: 0, timings: .init())
        }
        cache.insert(thumbnail(300), for: 1)
        cache.insert(thumbnail(300), for: 2)
        cache.insert(thumbnail(300), for: 3)
        #expect(cache.count == 3)
        cache.insert(thumbnail(300), for: 4)  // cost 1200 > 1000: 1 goes
        #expect(!cache.contains(1) && cache.count == 3)
        cache.insert(thumbnail(2000), for: 5)  // larger than the whole limit: not kept
        #expect(!cache.contains(5))
        #expect(cache.totalCost == 900)
    }

    /// Requests with a time that is not a number, and with a negative tolerance, each beside the valid request it
    /// spoils.
    static let requestsRefused: [(String, @Sendable (inout ThumbnailRequest) -> Void)] = [
        ("seconds NaN", { $0.time = .seconds(.nan) }),
        ("fraction NaN", { $0.time = .fraction(.nan) }),
        ("tolerance before negative", { $0.options.requestedTimeToleranceBefore = .milliseconds(-1) }),
        ("tolerance after negative", { $0.options.requestedTimeToleranceAfter = .seconds(-3) }),
    ]

    /// NaN is unequal to itself, so work or a picture kept under such a request could never be found again: the caller
    /// of a NaN time waited for ever (and, when tolerances were Doubles, a picture made with a NaN tolerance could not
    /// be dropped: the next insertion past the count limit looped for ever on the service's actor). Each such request,
    /// and one with a negative tolerance, is refused at once, as the generator refuses it, a prefetch of it starts
    /// nothing, and the service goes on serving past its count limit.
    @Test(arguments: 0..<requestsRefused.count)
    func aTimeThatIsNotANumberOrANegativeToleranceIsRefusedAtOnce(_ index: Int) async throws {
        let (name, spoil) = Self.requestsRefused[index]
        var configuration = ThumbnailService.Configuration()
        configuration.countLimit = 1
        let service = ThumbnailService(configuration: configuration)
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 32, height: 32)
        options.format = .none
        let valid = ThumbnailRequest(asset: .file(Fixtures.path("h264-faststart")), time: .seconds(1), options: options)
        var spoiled = valid
        spoil(&spoiled)
        let caught = await #expect(throws: ThumbnailError.self, "\(name)") { try await service.thumbnail(spoiled) }
        #expect(caught?.code == .invalidOption, "\(name)")
        let generator = ThumbnailGenerator(source: try FileByteSource(path: Fixtures.path("h264-faststart")), options: spoiled.options)
        let direct = await #expect(throws: ThumbnailError.self, "\(name)") { try await generator.image(at: spoiled.time) }
        #expect(direct?.code == .invalidOption, "\(name)")
        await service.prefetch([spoiled])
        #expect(await service.inFlightCount == 0, "\(name)")
        _ = try await service.thumbnail(valid)
        var other = valid
        other.time = .seconds(2)
        _ = try await service.thumbnail(other)
        #expect(await service.cachedCount == 1, "\(name)")
        #expect(await service.statistics.generated == 2, "\(name)")
    }

    /// A key unequal to itself (a NaN) is dropped like any other when the limits are passed: eviction used to look the
    /// oldest entry up by its key, found nothing to remove, and looped for ever.
    @Test func aKeyUnequalToItselfIsStillEvicted() {
        var cache = CostLimitedCache<Double, Int>(countLimit: 2, costLimit: 100)
        cache.insert(0, cost: 10, for: .nan)
        cache.insert(1, cost: 10, for: 1)
        cache.insert(2, cost: 10, for: 2)
        #expect(cache.count == 2)
        #expect(cache.contains(1) && cache.contains(2))
        #expect(cache.totalCost == 20)
    }
}
