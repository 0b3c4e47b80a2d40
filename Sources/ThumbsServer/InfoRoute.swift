import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs

/// `GET /info?url=…` (or `path=`): the media's summary as `thumbs info --json` prints it (`MediaSummary`: a movie's
/// tracks, or an HLS playlist's or a DASH manifest's periods and renditions), as
/// admitted work, from the index the service keeps (checked with a one-byte read at its version first, so a replaced
/// resource is read again) or located now and kept; an entity tag from the validator of the bytes read.
/// `bytesRead` and `reads` are what this answer read.
struct InfoRoute: Sendable {
    let resolver: InputResolver
    let work: AdmittedWork
    let metrics: ServerMetrics
    let maxAge: Int
    /// The movie indexes the thumbnail service keeps.
    let indexes: any MovieIndexStore

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        try await answering(request, context: context, resolver: resolver) { watchesConnection in
            let parameters = try QueryParameters(request.uri, known: ["url", "path"])
            let input = try resolver.asset(parameters, request: request).input
            let (metrics, indexes) = (self.metrics, self.indexes)
            let (json, validator, isLive) = try await work.run(for: request, watchesConnection: &watchesConnection) {
                try await Media.withMedia(of: input, indexes: indexes, sampleCacheBytes: 0, revalidates: true) { media in
                    let summary = try await MediaSummary.read(media, cost: .session)
                    metrics.recordOriginFetch(requests: summary.reads, bytes: summary.bytesRead)
                    return (try summary.json(), await media.validator, summary.isLive)
                }
            }
            let tag = EntityTag(route: "info", parameters: "", identity: input.identity, validator: validator)
                ?? EntityTag(bytes: json)
            // A live stream's playlists change: asked for again, and 304 while they have not.
            var headers = tag.headers(maxAge: isLive ? 0 : maxAge, policy: resolver.cachePolicy(for: request))
            if let ifNoneMatch = request.headers[.ifNoneMatch], tag.isMatched(byIfNoneMatch: ifNoneMatch) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        }
    }
}
