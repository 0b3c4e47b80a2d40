import ByteSources
import HTTPTypes
import Hummingbird
import MP4Box
import Storyboards
import Thumbs

/// `GET /storyboard.vtt` and `/storyboard.json` (a WebVTT thumbnail track and the JSON manifest, as
/// `thumbs storyboard` writes them) and `GET /storyboard/<n>.jpg` (the sheets they name, relative to the track, with
/// the track's query, and signed when the server signs), from one making per input and options.
struct StoryboardRoute: Sendable {
    let store: StoryboardStore
    let resolver: InputResolver
    let work: AdmittedWork
    let signature: RequestSignature?
    let metrics: ServerMetrics
    let maxAge: Int
    /// The most bytes of sheets one storyboard may have (a quarter of the store's memory).
    let maximumBytes: Int
    /// The thumbnail service's bounds on fetches and decodes at once, which storyboards share.
    let sharedLimits: ThumbnailWorkLimits
    /// The movie indexes the thumbnail service keeps, which storyboards use and fill.
    let indexes: any MovieIndexStore

    /// What is asked for.
    enum Document: String {
        case vtt, json
    }

    /// The track or manifest.
    func respond(to request: Request, context: some RequestContext, document: Document) async throws -> Response {
        try await answering(request, context: context, resolver: resolver) { watchesConnection in
            let (made, key, input) = try await storyboard(for: request, watchesConnection: &watchesConnection)
            let query = Self.queryWithoutSignature(request.uri.query)
            var storyboard = made.storyboard
            for index in storyboard.sheets.indices { storyboard.sheets[index].fileName = sheetReference(index, query: query) }
            storyboard.sheetTemplate = "storyboard/$index$.jpg?" + query
            let body: [UInt8]
            let mediaType: String
            switch document {
            case .vtt:
                body = Array(storyboard.webVTT().utf8)
                mediaType = "text/vtt; charset=utf-8"
            case .json:
                body = try storyboard.manifest.json()
                mediaType = "application/json"
            }
            let tag = EntityTag(route: "storyboard." + document.rawValue, parameters: key.options + "\n" + query,
                                identity: input.identity, validator: made.validator) ?? EntityTag(bytes: body)
            return Self.answer(body, mediaType: mediaType, tag: tag, request: request, maxAge: maxAge,
                               policy: resolver.cachePolicy(for: request))
        }
    }

    /// Sheet `name` (`<n>.jpg`).
    func respondWithSheet(_ name: String, to request: Request, context: some RequestContext) async throws -> Response {
        try await answering(request, context: context, resolver: resolver) { watchesConnection in
            guard name.hasSuffix(".jpg"), let index = Int(name.dropLast(4)), index >= 0 else {
                throw ServerError(.noRoute, "no sheet \(name): sheets are <n>.jpg")
            }
            let (made, key, input) = try await storyboard(for: request, watchesConnection: &watchesConnection)
            guard made.sheets.indices.contains(index) else {
                throw ServerError(.notFound, "the storyboard has \(made.sheets.count) sheets, not \(index + 1)")
            }
            let tag = EntityTag(route: "storyboard/\(index).jpg", parameters: key.options, identity: input.identity,
                                validator: made.validator) ?? EntityTag(bytes: made.sheets[index])
            return Self.answer(made.sheets[index], mediaType: "image/jpeg", tag: tag, request: request, maxAge: maxAge,
                               policy: resolver.cachePolicy(for: request))
        }
    }

    /// The storyboard the request's query names: kept, or made as admitted work.
    private func storyboard(for request: Request, watchesConnection: inout Bool) async throws
        -> (ServedStoryboard, StoryboardStore.Key, any MovieInput) {
        let parameters = try QueryParameters(request.uri, known: StoryboardQuery.names)
        let query = try StoryboardQuery(parameters)
        let input = try resolver.asset(parameters, request: request, onePicture: false).input
        let key = StoryboardStore.Key(identity: input.identity, version: await input.currentVersion(), options: query.canonical)
        let kept = await store.cached(key)
        metrics.recordCacheLookup("storyboard", hit: kept != nil)
        if let kept { return (kept, key, input) }
        let store = self.store
        let options = query.options
        let metrics = self.metrics
        let maximumBytes = self.maximumBytes
        let (sharedLimits, indexes) = (self.sharedLimits, self.indexes)
        let made = try await work.run(for: request, watchesConnection: &watchesConnection) {
            try await store.storyboard(key) {
                let meter = FetchMeter()
                return try await Media.withMedia(of: input, indexes: indexes, sampleCacheBytes: 0,
                                                 workLimits: sharedLimits) { media in
                    // A body run again (the bytes changed under a kept index) starts its sheets again.
                    var sheets = SheetCollector(maximumBytes: maximumBytes)
                    let storyboard = try await meter.measure {
                        try await StoryboardMaker(media: media, options: options).make { _, sheet in try sheets.add(sheet) }
                    }
                    let fetched = await media.statistics(measuredBy: meter)
                    metrics.recordOriginFetch(requests: fetched.requests, bytes: fetched.bytes)
                    return ServedStoryboard(storyboard: storyboard, sheets: sheets.sheets, validator: await media.validator)
                }
            }
        }
        return (made, key, input)
    }

    /// The sheets of a storyboard being made, refused past a quarter of the store: a storyboard it could not keep would
    /// be made again for every sheet asked for.
    struct SheetCollector {
        let maximumBytes: Int
        private(set) var sheets: [[UInt8]] = []
        private var bytes = 0

        init(maximumBytes: Int) {
            self.maximumBytes = maximumBytes
        }

        /// Keeps `sheet`.
        /// - Throws: `ServerError` `badParameter` past `maximumBytes`.
        mutating func add(_ sheet: [UInt8]) throws(ServerError) {
            bytes += sheet.count
            guard bytes <= maximumBytes else {
                throw ServerError(.badParameter, parameter: "interval", "the storyboard's sheets pass \(maximumBytes) bytes: "
                                  + "ask for a longer interval or smaller tiles")
            }
            sheets.append(sheet)
        }
    }

    /// Where sheet `index` is, relative to the track: `storyboard/<index>.jpg?<query>`, signed when the server signs.
    private func sheetReference(_ index: Int, query: String) -> String {
        let path = "/storyboard/\(index).jpg"
        guard let signature else { return String(path.dropFirst()) + "?" + query }
        return String(signature.signedPathAndQuery(path: path, query: query).dropFirst())
    }

    /// `query` without its `sig` parameter, the others in their order.
    static func queryWithoutSignature(_ query: String?) -> String {
        (query ?? "").split(separator: "&").filter { !$0.hasPrefix("sig=") }.joined(separator: "&")
    }

    private static func answer(_ body: [UInt8], mediaType: String, tag: EntityTag, request: Request, maxAge: Int,
                               policy: CachePolicy) -> Response {
        var headers = tag.headers(maxAge: maxAge, policy: policy)
        if let ifNoneMatch = request.headers[.ifNoneMatch], tag.isMatched(byIfNoneMatch: ifNoneMatch) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = mediaType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
