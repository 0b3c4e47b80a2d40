import Hummingbird

/// Counts and times every answer by route (the route's pattern, such as `/storyboard/:sheet`; `unrouted` for none)
/// and status, errors thrown by the routes and middleware after it included.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(route: context.endpointPath ?? "unrouted", status: response.status.code,
                                  duration: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: context.endpointPath ?? "unrouted", status: status, duration: ContinuousClock.now - started)
            throw error
        }
    }
}
