import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Whole requests to an AWS service (or a compatible one) signed with Signature Version 4, their payload by its
/// SHA-256: what `S3ObjectStore` and `SQSQueue` send (a range read is `HTTPByteSource`'s). Transient failures (5xx,
/// 429, connection failures, timeouts) are retried up to the options' `maximumRetries`, backing off from
/// `retryBackoff`; errors are `FetchError`s naming what was asked for (`name`), with the service's own words where its
/// body says them (`reason`), never a credential.
struct AWSServiceRequests: Sendable {
    let client: RangeFetchClient
    let options: HTTPFetchOptions
    /// Who signs; nil sends unsigned requests.
    let credentials: AWSCredentials?
    let region: String
    /// The service of the credential scope: `s3`, `sqs`.
    let service: String
    /// What a failed answer's body says, else nil: its error code and message.
    let reason: @Sendable ([UInt8]) -> String?

    /// Most bytes of a response body read.
    static let maximumResponseBytes = 16 << 20

    /// Sends one signed request, retrying transient failures; the response (nil for a 404 that `allowsNotFound`) and
    /// its body.
    func send(_ method: HTTPMethod, url: String, name: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
              allowsNotFound: Bool = false) async throws -> (HTTPClientResponse?, [UInt8]) {
        var attempt = 0
        while true {
            var request = HTTPClientRequest(url: url)
            request.method = method
            for (field, value) in headers { request.headers.add(name: field, value: value) }
            for field in options.headers { request.headers.add(name: field.name.rawName, value: field.value) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            if let credentials {
                let hash = body.map { AWSSignatureV4.hex(SHA256.hash(data: $0)) } ?? AWSSignatureV4.emptyPayloadHash
                try AWSSignatureV4(credentials: credentials, region: region, service: service, payloadHash: hash).sign(&request, at: Date())
            }
            let transient: FetchError
            do {
                let response = try await client.transport.execute(request, timeout: .milliseconds(options.readTimeout.whole(unitsPerSecond: 1000)))
                let bytes = try await Array(buffer: response.body.collect(upTo: Self.maximumResponseBytes))
                let status = Int(response.status.code)
                let said = { reason(bytes).map { "status \(status): \($0)" } ?? "status \(status)" }
                switch status {
                case 200 ..< 300: return (response, bytes)
                case 404 where allowsNotFound: return (nil, bytes)
                case 404: throw FetchError(.notFound, url: name, status: status, said())
                case 401, 403: throw FetchError(.forbidden, url: name, status: status, said())
                case 429, 500...: transient = FetchError(.serverError, url: name, status: status, said())
                default: throw FetchError(.clientError, url: name, status: status, said())
                }
            } catch let error as FetchError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as HTTPClientError where error == .connectTimeout || error == .readTimeout || error == .deadlineExceeded {
                transient = FetchError(.timedOut, url: name, "timed out (\(error))")
            } catch {
                let (code, what) = HTTPByteSource.connectionFailure(error)
                transient = FetchError(code, url: name, what)
            }
            guard attempt < options.maximumRetries else { throw transient }
            try await Task.sleep(for: options.retryBackoff * (1 << min(attempt, 6)))
            attempt += 1
        }
    }
}
