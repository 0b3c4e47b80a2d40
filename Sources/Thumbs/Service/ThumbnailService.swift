import ByteSources
import MP4Box

/// Thumbnails for a scrolling list of videos: a memory cache with count and cost limits, a movie-index cache,
/// one fetch and decode for concurrent requests of the same thumbnail, prefetching, and bounds on concurrent
/// fetches and decodes.
///
/// A request's work is cancelled only when every task waiting for it has been cancelled (and no prefetch holds it).
public actor ThumbnailService {
    /// Limits and sizes.
    public struct Configuration: Sendable {
        /// Most thumbnails kept in memory.
        public var countLimit = 500
        /// Most bytes of thumbnails kept in memory.
        public var costLimit = 64 << 20
        /// Most movie indexes kept.
        public var indexCapacity = 256
        /// Concurrent decodes (default: the number of cores).
        public var maximumConcurrentDecodes = ThumbnailService.coreCount
        /// Concurrent sample fetches.
        public var maximumConcurrentFetches = 8

        /// The defaults.
        public init() {}
    }

    /// What the service has done, for tests and monitoring.
    public struct Statistics: Sendable, Equatable {
        /// Calls of `thumbnail(_:)`.
        public var requests = 0
        /// Requests answered from the memory cache.
        public var cacheHits = 0
        /// Requests that joined work already under way.
        public var coalesced = 0
        /// Thumbnails made (each one fetch-and-decode).
        public var generated = 0
        /// Samples decoded.
        public var decodedSamples = 0
        /// Read requests sent to byte sources (index included).
        public var sourceReads = 0
        /// Body bytes those reads received.
        public var sourceBytes: UInt64 = 0
        /// Work cancelled because nobody waited for it any more.
        public var cancelledWork = 0
        /// Indexes located for thumbnails (not found in the index cache; `/info` and storyboards fill it too).
        public var indexLoads = 0

        /// All zero: nothing done yet.
        public init() {}
    }

    /// The number of active processor cores.
    public static var coreCount: Int { max(1, ProcessInfoCores.active) }

    /// A cached picture's key: the request, and the version of a local file it was made from, so a file replaced
    /// in place is made again.
    private struct CacheKey: Hashable, Sendable {
        var request: ThumbnailRequest
        var version: String?
    }

    private let configuration: Configuration
    private var cache: ThumbnailCache<CacheKey>
    /// The movie indexes the service keeps; give it to other work on the same inputs (storyboards, `/info`:
    /// `MovieSession.withSession(of:indexes:sampleCacheBytes:workLimits:locator:revalidates:onStoreFailure:isolation:_:)`) to share them.
    public nonisolated let indexes: MovieIndexCache
    /// Work under way, by request: one fetch and decode for everyone who asks, cancelled when nobody waits.
    private let flights = WorkCoalescer<ThumbnailRequest, Thumbnail>()
    /// The bounds on concurrent fetches and decodes every thumbnail of this service waits for; give them to other work
    /// (`StoryboardMaker(sharedLimits:)`) to keep it within the same bounds.
    public nonisolated let workLimits: ThumbnailWorkLimits
    private var counters = Statistics()

    /// What the service has done so far.
    public var statistics: Statistics {
        get async {
            var statistics = counters
            statistics.coalesced = flights.joined
            statistics.cancelledWork = flights.cancelled
            return statistics
        }
    }

    /// A service with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        cache = ThumbnailCache(countLimit: configuration.countLimit, costLimit: configuration.costLimit)
        indexes = MovieIndexCache(capacity: configuration.indexCapacity)
        workLimits = ThumbnailWorkLimits(fetches: configuration.maximumConcurrentFetches, decodes: configuration.maximumConcurrentDecodes)
    }

    /// The thumbnail for `request`: from the cache, from work already under way, or made now.
    /// - Throws: what `ThumbnailGenerator.image(at:)` throws (`ThumbnailError` `invalidOption` before any work for what
    ///   `ThumbnailRequest.validate()` refuses); `CancellationError` when this task is cancelled.
    public func thumbnail(_ request: ThumbnailRequest) async throws -> Thumbnail {
        counters.requests += 1
        try request.validate()
        let key = await cacheKey(request)
        if request.time != .latest, let cached = cache.value(for: key) {
            counters.cacheHits += 1
            return cached
        }
        return try await flights.value(for: request, work: work(request, key: key))
    }

    /// Starts making `requests` in the background, so a later `thumbnail(_:)` finds them ready; those that
    /// `ThumbnailRequest.validate()` refuses are left out (`thumbnail(_:)` throws for them).
    public func prefetch(_ requests: [ThumbnailRequest]) async {
        for request in requests where (try? request.validate()) != nil {
            let key = await cacheKey(request)
            if !cache.contains(key) { flights.hold(request, work: work(request, key: key)) }
        }
    }

    /// Stops prefetching `requests` (work that someone waits for goes on).
    public func cancelPrefetch(_ requests: [ThumbnailRequest]) async {
        for request in requests { flights.release(request) }
    }

    /// The number of thumbnails in memory.
    public var cachedCount: Int { cache.count }
    /// The bytes of thumbnails in memory.
    public var cachedCost: Int { cache.totalCost }
    /// Whether `request`'s thumbnail is in memory.
    public func isCached(_ request: ThumbnailRequest) async -> Bool { cache.contains(await cacheKey(request)) }

    /// `request`'s thumbnail if it is in memory (a cache hit, counted as one), else nil: no work is started.
    public func cachedThumbnail(_ request: ThumbnailRequest) async -> Thumbnail? {
        guard request.time != .latest, let cached = cache.value(for: await cacheKey(request)) else { return nil }
        counters.requests += 1
        counters.cacheHits += 1
        return cached
    }
    /// The length and version of `asset`'s bytes as the cached index knows them, without a read; nil when no
    /// index of its current version is cached.
    public func knownVersion(of asset: ThumbnailAsset) async -> KnownVersion? {
        await indexes.currentEntry(for: asset.input)?.known
    }

    /// Requests with work under way.
    public var inFlightCount: Int { get async { flights.count } }

    /// Forgets every thumbnail and index.
    public func removeAll() async {
        cache.removeAll()
        await indexes.removeAll()
    }

    // MARK: - Work

    /// The cache key of `request` now (a local file's version is read with one `stat`, off the tasks' threads).
    private func cacheKey(_ request: ThumbnailRequest) async -> CacheKey {
        CacheKey(request: request, version: await request.asset.input.currentVersion())
    }

    /// The work for `request`: made, then cached under `key`, the version its input had when the work started. The
    /// newest picture (`.latest`) is not kept: a live stream's moves on (requests at once still share one work).
    private func work(_ request: ThumbnailRequest, key: CacheKey) -> @Sendable () async throws -> Thumbnail {
        {
            let thumbnail = try await self.generate(request)
            if request.time != .latest { await self.keep(thumbnail, for: key) }
            return thumbnail
        }
    }

    private func count(_ fetched: FetchStats) {
        counters.sourceReads += fetched.requests
        counters.sourceBytes += fetched.bytes
    }

    private func keep(_ thumbnail: Thumbnail, for key: CacheKey) {
        cache.insert(thumbnail, for: key)
    }

    /// Makes one thumbnail, with the kept index when there is one (read again when the bytes changed under it:
    /// `MovieSession.withSession`), counting what it read. An HLS playlist or a DASH manifest (`Media.withMedia` tells,
    /// by the one rule) gives its stream's picture (placed by `StreamSeekMap`), each segment read
    /// through the asset's input (so its allowed origins hold) and within the service's bounds.
    private func generate(_ request: ThumbnailRequest) async throws -> Thumbnail {
        let meter = FetchMeter()  // this work's reads alone, also when it fails
        let thumbnail: Thumbnail
        do {
            thumbnail = try await meter.measure {
                try await Media.withMedia(of: request.asset.input, indexes: indexes,
                                          sampleCacheBytes: request.options.limits.sampleCacheBytes,
                                          workLimits: workLimits) { media in
                    if case .movie(let session) = media, !session.indexWasGiven { noteIndexLoad() }
                    return try await ThumbnailGenerator(media: media, options: request.options).image(at: request.time)
                }
            }
        } catch {
            count(meter.statistics)
            throw error
        }
        count(meter.statistics)
        counters.generated += 1
        counters.decodedSamples += thumbnail.decodedSamples
        return thumbnail
    }

    private func noteIndexLoad() {
        counters.indexLoads += 1
    }
}
