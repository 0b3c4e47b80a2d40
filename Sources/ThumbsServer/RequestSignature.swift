import Crypto

/// Signed request URLs: `sig` is the HMAC-SHA256, in lower-case hex, of the request's path and query without the
/// `sig` parameter, as they arrive (percent-encoding untouched, the other parameters in their order):
/// `/thumbnail.jpg?url=https%3A%2F%2Forigin%2Fa.mp4&width=320` is signed as that text, and sent as
/// `/thumbnail.jpg?url=https%3A%2F%2Forigin%2Fa.mp4&width=320&sig=<64 hex digits>`.
public struct RequestSignature: Sendable {
    /// The key's bytes (`SymmetricKey` is not `Sendable`; one is made for each use).
    private let keyBytes: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// Signatures with `key` (the bytes of `--signing-key-file`).
    public init(key: [UInt8]) {
        keyBytes = key
    }

    /// The signature of `path` with `query` (without `sig`).
    public func signature(path: String, query: String?) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array(Self.signedText(path: path, query: query).utf8), using: key)
        return Hex.string(code)
    }

    /// `path` and `query` with `sig=` added.
    public func signedPathAndQuery(path: String, query: String?) -> String {
        let sig = signature(path: path, query: query)
        guard let query, !query.isEmpty else { return path + "?sig=" + sig }
        return path + "?" + query + "&sig=" + sig
    }

    /// Checks the `sig` parameter of a request's raw `query`, in constant time for a signature of the right length.
    /// - Throws: `ServerError` `badSignature` when `sig` is missing, repeated, not 64 hex digits, or wrong.
    public func verify(path: String, query: String?) throws(ServerError) {
        var kept: [Substring] = []
        var signatures: [Substring] = []
        for parameter in (query ?? "").split(separator: "&", omittingEmptySubsequences: false) {
            if parameter.hasPrefix("sig=") { signatures.append(parameter.dropFirst(4)) } else { kept.append(parameter) }
        }
        guard signatures.count == 1 else {
            throw ServerError(.badSignature, parameter: "sig", signatures.isEmpty ? "a signature is required" : "more than one sig")
        }
        guard let given = Hex.bytes(signatures[0]), given.count == SHA256.byteCount else {
            throw ServerError(.badSignature, parameter: "sig", "sig is not 64 hex digits")
        }
        let rest = kept.joined(separator: "&")
        let text = Self.signedText(path: path, query: rest.isEmpty ? nil : rest)
        guard HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Array(text.utf8), using: key) else {
            throw ServerError(.badSignature, parameter: "sig", "the signature does not match the path and query")
        }
    }

    private static func signedText(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        return path + "?" + query
    }
}
