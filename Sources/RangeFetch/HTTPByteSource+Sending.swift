import AsyncHTTPClient
import ByteSources
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix

/// Sending a request (the caller's headers, If-Range, the deadline), and what its failures and answers mean for the
/// source: a changed resource, a retryable failure, a final `FetchError`.
extension HTTPByteSource {
    /// Sends the GET for `spec` to `target`, with the caller's headers (credentials only to the origin asked for).
    func send(_ spec: RangeSpec, to target: String, range: Range<UInt64>?) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: target)
        request.method = .GET
        request.headers.add(name: "Range", value: spec.header)
        request.headers.add(name: "Accept-Encoding", value: "identity")
        if let ifRange = ledger.validator?.ifRangeValue {
            request.headers.add(name: "If-Range", value: ifRange)
        }
        let sameOrigin = OriginRangeSupport.origin(of: target) == OriginRangeSupport.origin(of: url)
        for field in options.headers where sameOrigin || !Self.credentialHeaders.contains(field.name) {
            request.headers.add(name: field.name.rawName, value: field.value)
        }
        if sameOrigin, let signer = options.signer {
            try signer.sign(&request, at: Date())
        }
        // The client's read timeout bounds each wait for the connection; the deadline, if any, bounds the head.
        // Without one, an hour stands for "no deadline" (AsyncHTTPClient needs one; reads time out long before).
        let timeout = ledger.timeLeft() ?? .seconds(3600)
        do {
            return try await client.transport.execute(request, timeout: .milliseconds(timeout.whole(unitsPerSecond: 1000)))
        } catch {
            throw classify(error, range: range, partial: nil)
        }
    }

    /// Headers that carry credentials: never sent on to another origin.
    static let credentialHeaders: Set<HTTPField.Name> = [.authorization, .cookie, .proxyAuthorization]

    static func isHTTP(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// `location` resolved against the URL that answered with it.
    static func resolve(_ location: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let resolved = URL(string: location.trimmingWhitespace(), relativeTo: baseURL) else {
            return nil
        }
        return resolved.absoluteString
    }

    /// Throws `resourceChanged` (or adopts the new version, by policy) when a response shows another version.
    func checkChange(validator seen: Validator?, length: UInt64?, range: Range<UInt64>?, status: Int) async throws {
        guard ledger.observe(validator: seen, length: length) else { return }
        switch options.changePolicy {
        case .fail:
            let was = ledger.validator?.description ?? "-"
            throw FetchError(.resourceChanged, url: url, range: range, status: status,
                             "the resource changed (validator \(was) became \(seen?.description ?? "-"))")
        case .restart:
            ledger.adopt(validator: seen, length: length)
        }
    }

    /// Maps a transport error to a retryable failure or a final `FetchError`.
    func classify(_ error: any Error, range: Range<UInt64>?, partial: Int?) -> any Error {
        if error is CancellationError { return error }
        if let fetchError = error as? FetchError { return fetchError }
        if let clientError = error as? HTTPClientError {
            // AsyncHTTPClient's deadline is the time left before ours: our deadline passed, whichever of it and the
            // check on each chunk of the body saw it first.
            if clientError == .deadlineExceeded, let deadline = options.deadline {
                return FetchError(.budgetExceeded, url: url, range: range, "deadline of \(deadline) passed")
            }
            switch clientError {
            case .connectTimeout, .readTimeout, .deadlineExceeded:
                return Retryable(final: FetchError(.timedOut, url: url, range: range, "timed out (\(clientError))"))
            case .cancelled:
                return CancellationError()
            default:
                break
            }
        }
        let detail = String(describing: error)
        if let partial {
            return Retryable(final: FetchError(.truncatedBody, url: url, range: range,
                                               "the connection failed after \(partial) body bytes: \(detail)"))
        }
        let (code, what) = Self.connectionFailure(error)
        // A failure we can name is said plainly; another keeps the transport's own words.
        return Retryable(final: FetchError(code, url: url, range: range, code == .connectionFailed ? "\(what): \(detail)" : what))
    }

    /// What kind of connection failure `error` is (refused, reset, timed out, or another), in words with the errno.
    static func connectionFailure(_ error: any Error) -> (FetchError.Code, String) {
        let errno: CInt? = if let io = error as? IOError {
            io.errnoCode
        } else if let connection = error as? NIOConnectionError {
            connection.connectionErrors.lazy.compactMap { ($0.error as? IOError)?.errnoCode }.first
        } else {
            nil
        }
        switch errno {
        case ECONNREFUSED?: return (.connectionRefused, "the connection was refused (errno \(ECONNREFUSED))")
        case ECONNRESET?, EPIPE?, ECONNABORTED?: return (.connectionReset, "the connection was reset (errno \(errno ?? 0))")
        case ETIMEDOUT?: return (.timedOut, "the connection timed out (errno \(ETIMEDOUT))")
        default: break
        }
        if let clientError = error as? HTTPClientError, clientError == .remoteConnectionClosed {
            return (.connectionReset, "the server closed the connection")
        }
        return (.connectionFailed, "the connection failed")
    }
}
