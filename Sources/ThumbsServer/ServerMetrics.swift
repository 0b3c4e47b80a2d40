import ByteSources
import Metrics
import Prometheus
import Synchronization
import Thumbs

/// The service's metrics, through swift-metrics into a Prometheus registry of this server's own (no process-wide
/// bootstrap, so servers in one process never mix their counts), answered by `GET /metrics` in the text format.
///
/// - `thumbs_http_requests_total{route,status}` and `thumbs_http_request_duration_seconds{route}` (a histogram);
/// - `thumbs_cache_hits_total{cache}` and `thumbs_cache_misses_total{cache}` (`thumbnail`, `storyboard`);
/// - `thumbs_origin_requests_total` and `thumbs_origin_bytes_total`: reads of movies (from origins for `url=`, from
///   the media root for `path=`) and their body bytes;
/// - `thumbs_queue_length` (requests admitted and waiting for a decode) and `thumbs_work_in_progress`.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// The thumbnail service's statistics when they were last added in.
    private let serviceSeen = Mutex(ThumbnailService.Statistics())

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
            .map { Duration.milliseconds(Int64($0 * 1000)) }
        self.factory = factory
    }

    /// One answered request.
    func recordRequest(route: String, status: Int, duration: Duration) {
        Counter(label: "thumbs_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            .increment()
        Timer(label: "thumbs_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(duration.whole(unitsPerSecond: 1_000_000_000))
    }

    /// A lookup in one of the service's caches.
    func recordCacheLookup(_ cache: String, hit: Bool) {
        Counter(label: hit ? "thumbs_cache_hits_total" : "thumbs_cache_misses_total", dimensions: [("cache", cache)],
                factory: factory).increment()
    }

    /// What one piece of work fetched from an origin.
    func recordOriginFetch(requests: Int, bytes: UInt64) {
        guard requests > 0 || bytes > 0 else { return }
        Counter(label: "thumbs_origin_requests_total", factory: factory).increment(by: requests)
        Counter(label: "thumbs_origin_bytes_total", factory: factory).increment(by: Int(clamping: bytes))
    }

    /// Adds in what the thumbnail service did since the last call: its cache lookups (a request that joined work
    /// under way is a miss) and its reads.
    func addServiceStatistics(_ statistics: ThumbnailService.Statistics) {
        // An older snapshot than the last one added (two scrapes crossing) adds nothing.
        let last = serviceSeen.withLock { seen -> ThumbnailService.Statistics? in
            guard statistics.requests >= seen.requests, statistics.sourceReads >= seen.sourceReads else { return nil }
            defer { seen = statistics }
            return seen
        }
        guard let seen = last else { return }
        let hits = statistics.cacheHits - seen.cacheHits
        let misses = (statistics.requests - statistics.cacheHits) - (seen.requests - seen.cacheHits)
        if hits > 0 { Counter(label: "thumbs_cache_hits_total", dimensions: [("cache", "thumbnail")], factory: factory).increment(by: hits) }
        if misses > 0 {
            Counter(label: "thumbs_cache_misses_total", dimensions: [("cache", "thumbnail")], factory: factory).increment(by: misses)
        }
        recordOriginFetch(requests: max(0, statistics.sourceReads - seen.sourceReads),
                          bytes: statistics.sourceBytes &- min(seen.sourceBytes, statistics.sourceBytes))
    }

    /// The admission gate's state.
    func recordAdmission(queueLength: Int, admitted: Int) {
        Gauge(label: "thumbs_queue_length", factory: factory).record(queueLength)
        Gauge(label: "thumbs_work_in_progress", factory: factory).record(admitted)
    }

    /// Everything, in the Prometheus text format.
    /// Client connections open now.
    func recordConnections(open: Int) {
        Gauge(label: "thumbs_open_connections", factory: factory).record(open)
    }

    /// A connection closed at once for being past `--max-connections` (`open` were open).
    func recordConnectionRefused(open: Int) {
        Counter(label: "thumbs_connections_refused_total", factory: factory).increment()
        recordConnections(open: open)
    }

    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
