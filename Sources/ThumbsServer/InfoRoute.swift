import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs

/// `GET /info?url=…` (or `path=`): the movie's tracks as `thumbs info --json` prints them (`MovieSummary`), as
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
            let (json, validator) = try await work.run(for: request, watchesConnection: &watchesConnection) {
                try await MovieSession.withSession(of: input, indexes: indexes, sampleCacheBytes: 0, revalidates: true) { session in
                    let movie = try await session.loadCompleteMovie()
                    let fetched = await session.statistics
                    metrics.recordOriginFetch(requests: fetched.requests, bytes: fetched.bytes)
                    let summary = MovieSummary(movie, fileSize: await session.source.knownLength, bytesRead: Int(fetched.bytes),
                                               reads: fetched.requests)
                    return (try summary.json(), await session.source.version)
                }
            }
            let tag = EntityTag(route: "info", parameters: "", identity: input.identity, validator: validator)
                ?? EntityTag(bytes: json)
            var headers = tag.headers(maxAge: maxAge, policy: resolver.cachePolicy(for: request))
            if let ifNoneMatch = request.headers[.ifNoneMatch], tag.isMatched(byIfNoneMatch: ifNoneMatch) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        }
    }
}
