import Hummingbird
import Logging

/// How a route runs work that fetches and decodes: admitted by the gate (503 past it), within the deadline (504),
/// cancelled when the client goes away, and its freed memory given back when no work is left.
struct AdmittedWork: Sendable {
    let gate: AdmissionGate
    let deadline: Double
    let metrics: ServerMetrics
    /// Returns freed memory to the system when the last admitted request has left.
    let trim: IdleMemoryTrim

    /// Runs `body` for `request`. `watchesConnection` is set once the connection is watched: Hummingbird gives it up
    /// after the answer, which must then say so (`Connection: close`).
    func run<T: Sendable>(for request: Request, watchesConnection: inout Bool,
                          _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard gate.enter() else {
            throw ServerError(.overloaded, "\(gate.admittedCount) requests are at work; try again", retryAfter: 1)
        }
        metrics.recordAdmission(queueLength: gate.queueLength, admitted: gate.admittedCount)
        defer {
            gate.leave()
            metrics.recordAdmission(queueLength: gate.queueLength, admitted: gate.admittedCount)
            trim.workEnded { [gate] in gate.admittedCount == 0 }
        }
        watchesConnection = true
        return try await withDeadline(seconds: deadline) {
            try await request.body.consumeWithCancellationOnInboundClose { _ in try await body() }
        }
    }
}

/// The answer of a route: `answer`'s response, or its error's (see `ServerError.init(answering:)`; a local file is
/// named by the path asked for, `InputResolver`), and `Connection: close` when the work watched the connection.
func answering(_ request: Request, context: some RequestContext, resolver: InputResolver,
               _ answer: (_ watchesConnection: inout Bool) async throws -> Response) async throws -> Response {
    var watchesConnection = false
    do {
        var response = try await answer(&watchesConnection)
        if watchesConnection { response.headers[.connection] = "close" }
        return response
    } catch {
        let failure = ServerError(answering: error)
        // The request's logger carries its id (hb.request.id), so this line goes with the request's own.
        let level: Logger.Level = failure.status.code >= 500 ? .warning : .info
        context.logger.log(level: level, "answered \(failure.status.code) \(failure.code.rawValue)",
                           metadata: ["detail": .string(failure.detail)])
        var response = try failure.response(from: request, context: context, policy: resolver.cachePolicy(for: request))
        if watchesConnection { response.headers[.connection] = "close" }
        return response
    }
}
