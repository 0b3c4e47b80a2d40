import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs

/// `GET /info?url=…` (or `path=`): the movie's tracks as `thumbs info --json` prints them (`MovieSummary`; of an HLS
/// playlist or a DASH manifest, its periods and renditions, `StreamSummary`), as
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
                try await input.readingMedia(asMovie: {
                    try await MovieSession.withSession(of: input, indexes: indexes, sampleCacheBytes: 0,
                                                       revalidates: true) { session in
                        let movie = try await session.loadCompleteMovie()
                        let fetched = await session.statistics
                        metrics.recordOriginFetch(requests: fetched.requests, bytes: fetched.bytes)
                        let summary = MovieSummary(movie, fileSize: await session.source.knownLength, bytesRead: Int(fetched.bytes),
                                                   reads: fetched.requests)
                        return (try summary.json(), await session.source.version, false)
                    }
                }, asStream: { try await Self.streamSummary(of: input, metrics: metrics) })
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

    /// The JSON `thumbs info --json` prints for the stream `input`'s playlist names (`StreamSummary`: the playlist and
    /// every media playlist, read through `input`, so the origin rules hold for each), with no validator (its tag is
    /// its bytes), and whether the stream is live.
    private static func streamSummary(of input: any MovieInput,
                                      metrics: ServerMetrics) async throws -> (json: [UInt8], validator: String?, isLive: Bool) {
        let summary = try await StreamSummary.read(StreamSession(input: input))
        metrics.recordOriginFetch(requests: summary.reads, bytes: summary.bytesRead)
        return (try summary.json(), nil, summary.live)
    }
}
