import AsyncHTTPClient
import NIOCore

/// What sends one HTTP request for an `HTTPByteSource`: the network, or anything that answers like it.
///
/// The default is AsyncHTTPClient (`RangeFetchClient.shared`). Another transport (a recorder, a proxy of the
/// caller's, scripted answers in tests and fuzzing) sees every request exactly as it would go out, Range and
/// If-Range included, and its answers go through the same checks: status, Content-Range, validators, body length,
/// retries and redirects.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response once its head has arrived; the body streams after.
    /// - Parameters:
    ///   - request: the request, with its Range and If-Range headers.
    ///   - timeout: how long the head may take.
    /// - Throws: `HTTPClientError` (timeouts and cancellation are classified; anything else counts as a failed
    ///   connection and is retried), or `CancellationError`.
    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse
}

/// AsyncHTTPClient as a transport: what `RangeFetchClient`'s own clients send through.
struct AsyncHTTPClientTransport: HTTPTransport {
    let client: HTTPClient

    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await client.execute(request, timeout: timeout)
    }
}
