import Hummingbird

/// With a signing key: refuses (403) every request but the page (`/`, whose links it signs itself), `/healthz` and
/// `/metrics` whose `sig` does not sign its path and query, before any other work.
struct SignatureMiddleware<Context: RequestContext>: RouterMiddleware {
    let signature: RequestSignature
    /// Paths served unsigned: the page, probes and scrapers.
    static var unsignedPaths: Set<String> { ["/", "/healthz", "/metrics"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if !Self.unsignedPaths.contains(request.uri.path) {
            try signature.verify(path: request.uri.path, query: request.uri.query)
        }
        return try await next(request, context)
    }
}
