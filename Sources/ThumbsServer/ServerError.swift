#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird

/// The one error type of the `ThumbsServer` layer: what the service answers instead of a picture, with the status,
/// the parameter it is about and a short description, sent as a JSON body
/// (`{"error":"badParameter","parameter":"width","detail":"width is not a whole number"}`).
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; each has one status. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, Codable, CaseIterable {
        /// 400: a parameter is missing, malformed or out of range.
        case badParameter
        /// 403: `url=` names an origin that is not allowed (or a scheme other than http and https).
        case originNotAllowed
        /// 403: `path=` leaves `--media-root`, or local files are not served.
        case pathNotAllowed
        /// 403: `sig=` is missing or wrong.
        case badSignature
        /// 404: the origin (or the media root) has no such file.
        case notFound
        /// 404: no route.
        case noRoute
        /// 415: the file is not a movie (nor a playlist or manifest), is malformed, or has no video that can be
        /// decoded here.
        case unsupportedMedia
        /// 415: the movie (or stream) has no video to make a picture of.
        case noVideo
        /// 422: the input needs more origin requests or bytes, or more samples, than one answer may cost (a movie
        /// index of a million tiny boxes, a keyframe larger than the limits).
        case overBudget
        /// 502: the origin failed (an error status, a reset, a body that breaks the rules, a refused redirect).
        case originFailed
        /// 503: the queue is full; try again after `Retry-After`.
        case overloaded
        /// 504: the answer took longer than the deadline.
        case deadlineExceeded
        /// 499 (nginx's number): the client closed the connection before the answer; its share of the work was
        /// cancelled. Nobody reads this answer; it is counted and logged.
        case clientClosedRequest
        /// 500: the service failed otherwise (an encoder, a bug).
        case internalError
        /// A configuration that cannot start a server (not an HTTP answer).
        case invalidConfiguration
    }

    /// The kind of failure.
    public var code: Code
    /// The request parameter it is about, when there is one.
    public var parameter: String?
    /// A short, factual, lower-case description.
    public var detail: String
    /// Seconds a client should wait before trying again (503).
    public var retryAfter: Int?

    /// Makes an error.
    public init(_ code: Code, parameter: String? = nil, _ detail: String, retryAfter: Int? = nil) {
        self.code = code
        self.parameter = parameter
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// The HTTP status it is answered with.
    public var status: HTTPResponse.Status {
        switch code {
        case .badParameter: .badRequest
        case .originNotAllowed, .pathNotAllowed, .badSignature: .forbidden
        case .notFound, .noRoute: .notFound
        case .unsupportedMedia, .noVideo: .unsupportedMediaType
        case .overBudget: .unprocessableContent
        case .originFailed: .badGateway
        case .overloaded: .serviceUnavailable
        case .deadlineExceeded: .gatewayTimeout
        case .clientClosedRequest: HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
        case .internalError, .invalidConfiguration: .internalServerError
        }
    }

    public var description: String {
        "\(status.code) \(code.rawValue)" + (parameter.map { " (\($0))" } ?? "") + ": \(detail)"
    }
}

extension ServerError: HTTPResponseError {
    private struct Body: Encodable {
        var error: String
        var parameter: String?
        var detail: String
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try response(from: request, context: context, policy: .shared)
    }

    /// The answer, cached (when it may be) as `policy` says.
    func response(from request: Request, context: some RequestContext, policy: CachePolicy) throws -> Response {
        let body = try JSONEncoder().encode(Body(error: code.rawValue, parameter: parameter, detail: detail))
        // What the origin's file is (404, 415, 422) may be cached a minute, so a cache in front does not ask again at
        // once; everything else is about this request or this moment.
        let cacheable = [.notFound, .unsupportedMedia, .noVideo, .overBudget].contains(code)
        var headers: HTTPFields = cacheable ? policy.headers(maxAge: 60) : [.cacheControl: "no-store"]
        headers[.contentType] = "application/json"
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
