import Hummingbird
import HummingbirdCore
import Logging
import RangeFetch
import Thumbs

/// The thumbnail service over HTTP: one `ThumbnailService` per process behind Hummingbird routes.
///
/// Routes: `GET /thumbnail.png`, `/thumbnail.jpg`, `/thumbnail.webp`, `/thumbnail.avif`, and `/thumbnail` whose format
/// `format=` names or `Accept` chooses (see `ThumbnailQuery`, `ImageNegotiation`), `GET /info` (the
/// movie's tracks, as `thumbs info --json`), `GET /storyboard.vtt`, `/storyboard.json` and the sheets they name
/// (`/storyboard/<n>.jpg`, see `StoryboardQuery`), `GET /metrics` (Prometheus, see `ServerMetrics`),
/// `GET /healthz`, and `GET /` (a page of the videos, see `VideoPage`) with a media root or page URLs.
/// Everything it fetches goes through `InputResolver`'s origin and media-root checks; with a signing key every
/// request but the health check is checked by `SignatureMiddleware` first.
public struct ThumbsServer: Sendable {
    /// How it was configured.
    public let configuration: ServerConfiguration
    /// The process's thumbnail service (caches, coalescing, decode limits).
    public let service: ThumbnailService
    private let resolver: InputResolver
    private let gate: AdmissionGate
    private let storyboards: StoryboardStore
    private let metrics = ServerMetrics()

    /// A server for `configuration`, fetching through `client` (its own when nil).
    /// - Throws: `ServerError` `invalidConfiguration` for a media root that is not a directory, or a deadline that is
    ///   not above 0 and at most `ServerConfiguration.maximumDeadline` seconds.
    public init(configuration: ServerConfiguration, client: RangeFetchClient? = nil) throws(ServerError) {
        try configuration.validate()
        self.configuration = configuration
        var serviceConfiguration = ThumbnailService.Configuration()
        serviceConfiguration.costLimit = configuration.cacheBytes
        serviceConfiguration.countLimit = configuration.cacheCount
        serviceConfiguration.indexCapacity = configuration.indexCapacity
        serviceConfiguration.maximumConcurrentDecodes = configuration.maximumConcurrentDecodes
        service = ThumbnailService(configuration: serviceConfiguration)
        resolver = InputResolver(allowedOrigins: configuration.allowedOrigins, s3: configuration.s3,
                                 mediaRoot: try configuration.mediaRoot.map { path throws(ServerError) in try MediaRoot(path) },
                                 forwardedHeaders: configuration.forwardedHeaders,
                                 maximumOriginBytes: configuration.maximumOriginBytes,
                                 maximumOriginRequests: configuration.maximumOriginRequests,
                                 client: client ?? RangeFetchClient.shared)
        gate = AdmissionGate(decodes: configuration.maximumConcurrentDecodes, queue: configuration.maximumQueue)
        storyboards = StoryboardStore(countLimit: configuration.storyboardCount, costLimit: configuration.storyboardBytes)
    }

    /// The routes and middleware.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: LogRequestsMiddleware(.info))
        if let key = configuration.signingKey {
            router.add(middleware: SignatureMiddleware(signature: RequestSignature(key: key)))
        }
        router.get("/healthz") { _, _ in "ok\n" }
        if resolver.mediaRoot != nil || !configuration.pageURLs.isEmpty {
            let page = PageRoute(pageURLs: configuration.pageURLs, mediaRoot: resolver.mediaRoot,
                                 signature: configuration.signingKey.map { RequestSignature(key: $0) })
            router.get("/") { _, _ in page.respond() }
        }
        let service = self.service
        let metrics = self.metrics
        router.get("/metrics") { _, _ in
            metrics.addServiceStatistics(await service.statistics)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        let trim = IdleMemoryTrim()
        let work = AdmittedWork(gate: gate, deadline: configuration.requestDeadline, metrics: metrics, trim: trim)
        let thumbnails = ThumbnailRoute(service: service, resolver: resolver, work: work, maxAge: configuration.maxAge)
        for format in ["png", "jpg", "webp", "avif"] {
            router.get(RouterPath("/thumbnail.\(format)")) { request, context in
                try await thumbnails.respond(to: request, context: context, format: format)
            }
        }
        router.get("/thumbnail") { request, context in
            try await thumbnails.respond(to: request, context: context, format: nil)
        }
        let info = InfoRoute(resolver: resolver, work: work, metrics: metrics, maxAge: configuration.maxAge,
                             indexes: service.indexes)
        router.get("/info") { request, context in try await info.respond(to: request, context: context) }
        let storyboardRoute = StoryboardRoute(store: storyboards, resolver: resolver,
                                          work: AdmittedWork(gate: gate, deadline: configuration.storyboardDeadline, metrics: metrics,
                                                             trim: trim),
                                          signature: configuration.signingKey.map { RequestSignature(key: $0) }, metrics: metrics,
                                          maxAge: configuration.maxAge, maximumBytes: max(1, configuration.storyboardBytes / 4),
                                          sharedLimits: service.workLimits, indexes: service.indexes)
        router.get("/storyboard.vtt") { request, context in
            try await storyboardRoute.respond(to: request, context: context, document: .vtt)
        }
        router.get("/storyboard.json") { request, context in
            try await storyboardRoute.respond(to: request, context: context, document: .json)
        }
        router.get("/storyboard/:sheet") { request, context in
            try await storyboardRoute.respondWithSheet(context.parameters.get("sheet") ?? "", to: request, context: context)
        }
        return router
    }

    /// The application, listening where the configuration says, closing connections past `maximumConnections` and
    /// those idle past `idleTimeout`; `onListening` is given the port once it listens.
    public func makeApplication(logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let connections = OpenConnectionLimit(limit: configuration.maximumConnections, metrics: metrics)
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [connections.makeHandler()],
                                               idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))
        return Application(router: makeRouter(), server: .http1(configuration: http1),
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "thumbs"),
                           onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
                           logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting and finishes the requests in flight.
    public func run(logger: Logger) async throws {
        try await makeApplication(logger: logger).runService()
    }
}
