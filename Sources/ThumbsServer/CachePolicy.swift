import HTTPTypes

/// How a shared cache in front of the server (nginx, a CDN) may keep an answer: `Vary` on every header the server
/// forwards to origins, so that an answer made without them is never handed to a request with them (nor one made
/// with them to a request without), and on `Accept` where it chose the picture's format; `private` when the request
/// carried a forwarded header, so an answer made with someone's credentials is kept for them alone.
struct CachePolicy: Sendable, Equatable {
    /// The request headers the answer depends on (lower case, sorted): the forwarded ones, and `accept` for a
    /// negotiated picture; empty when none.
    var vary: [String]
    /// Whether the request carried a forwarded header.
    var isPrivate: Bool

    /// The policy of an answer that depends on no request header.
    static let shared = CachePolicy(vary: [], isPrivate: false)

    /// `Cache-Control` (`public` or `private`, with `max-age`) and, when headers are forwarded, `Vary`.
    func headers(maxAge: Int) -> HTTPFields {
        var fields: HTTPFields = [.cacheControl: (isPrivate ? "private" : "public") + ", max-age=\(maxAge)"]
        if !vary.isEmpty { fields[.vary] = vary.joined(separator: ", ") }
        return fields
    }
}
