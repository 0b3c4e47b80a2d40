import ByteSources
import Foundation

/// The one error type of the `RangeFetch` layer: what the server did, for which URL and byte range.
public struct FetchError: ByteSourceError, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of failure. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// 404.
        case notFound
        /// 401 or 403.
        case forbidden
        /// 416: the range starts past the end of the resource.
        case rangeNotSatisfiable
        /// Another 4xx status.
        case clientError
        /// 5xx, after any retries.
        case serverError
        /// Nothing accepted the connection at the host and port (refused), after any retries.
        case connectionRefused
        /// The server closed or reset the connection before the response was whole, after any retries.
        case connectionReset
        /// The connection failed otherwise (the host name did not resolve, no route, TLS), after any retries.
        case connectionFailed
        /// The body ended before the bytes the headers promised.
        case truncatedBody
        /// The body went on past the bytes the headers promised.
        case bodyTooLong
        /// Content-Range does not describe the range asked for.
        case contentRangeMismatch
        /// The response is not HTTP we can use (no Content-Range on a 206, an unknown status, ...).
        case invalidResponse
        /// The resource changed between two reads (its validator differs).
        case resourceChanged
        /// A per-thumbnail budget (bytes, requests or deadline) was exceeded.
        case budgetExceeded
        /// Connect or read timed out, after any retries.
        case timedOut
        /// The URL is not http or https.
        case unsupportedURL
        /// A redirect was not followed: more than `maximumRedirects`, to another scheme, refused by
        /// `allowsRedirect`, or without a usable Location.
        case redirectRefused
    }

    /// The kind of failure.
    public var code: Code
    /// The URL asked for.
    public var url: String
    /// The byte range asked for, if any.
    public var range: Range<UInt64>?
    /// The HTTP status, if a response came.
    public var status: Int?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, url: String, range: Range<UInt64>? = nil, status: Int? = nil, _ detail: String) {
        self.code = code
        self.url = url
        self.range = range
        self.status = status
        self.detail = detail
    }

    /// The code is `resourceChanged`.
    public var isResourceChanged: Bool { code == .resourceChanged }

    /// Where (the URL as `URLRedaction` shows it: no user info, query or fragment, which may hold a password or a
    /// presigned URL's credential and signature; and the byte range), then what.
    public var description: String {
        let bytes = range.map { ", bytes \(ByteRange.text($0))" } ?? ""
        return "\(URLRedaction.shown(url))\(bytes): \(detail)"
    }

    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
