import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs

/// `GET /info?url=…` (or `path=`): the movie's tracks as `thumbs info --json` prints them (`MovieSummary`), located
/// afresh as admitted work, with an entity tag from the validator of the bytes read.
struct InfoRoute: Sendable {
    let resolver: InputResolver
    let work: AdmittedWork
    let metrics: ServerMetrics
    let maxAge: Int

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        try await answering(request, context: context, resolver: resolver) { watchesConnection in
            let parameters = try QueryParameters(request.uri, known: ["url", "path"])
            let input = try resolver.asset(parameters, request: request).input
            let metrics = self.metrics
            let (json, validator) = try await work.run(for: request, watchesConnection: &watchesConnection) {
                let source = try input.open(known: nil)
                let located = try await MovieLocator().locate(in: source)
                if let fetched = await source.statistics { metrics.recordOriginFetch(requests: fetched.requests, bytes: fetched.bytes) }
                return (try MovieSummary(located).json(), await source.version)
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
