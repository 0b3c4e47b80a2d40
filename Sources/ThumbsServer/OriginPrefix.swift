#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RangeFetch

/// An allowed origin: an http(s) URL that fetched URLs must start with, compared part by part (scheme, host, port,
/// then the path as a prefix of the decoded path), never as text: `http://a.example@b.example/` does not start
/// with `http://a.example` here, although its text does. Or a bucket and key prefix, `s3://bucket/prefix`, that
/// `s3://` URLs must start with.
public struct OriginPrefix: Sendable, Equatable, CustomStringConvertible {
    /// `http`, `https` or `s3`.
    public let scheme: String
    /// The host, lower-case (for `s3`, the bucket).
    public let host: String
    /// The port (80 or 443 when the URL gives none; 0 for `s3`).
    public let port: Int
    /// The path prefix, percent-decoded ("/" for the whole host; for `s3`, "/" and the key prefix as written).
    public let path: String

    /// Parses `text`, an absolute http(s) URL without user name, password, query or fragment, or `s3://bucket/` with
    /// a key prefix or none.
    /// - Throws: `ServerError` `invalidConfiguration` naming what is wrong.
    public init(_ text: String) throws(ServerError) {
        if S3Location.isS3(text) {
            guard let url = ParsedURL(s3: text, prefix: true) else {
                throw ServerError(.invalidConfiguration, "--allow-origin \(text) is not s3://bucket/ or s3://bucket/prefix")
            }
            (scheme, host, port, path) = (url.scheme, url.host, url.port, url.path)
            return
        }
        guard let url = ParsedURL(text), URLComponents(string: text)?.query == nil else {
            throw ServerError(.invalidConfiguration, "--allow-origin \(text) is not an absolute http or https URL without user, query or fragment")
        }
        scheme = url.scheme
        host = url.host
        port = url.port
        path = url.path
    }

    /// Whether `url` is under this prefix: same scheme, host and port, and a decoded path that starts with the
    /// prefix's. A prefix path that does not end with "/" matches at a segment boundary only
    /// (`/media` allows `/media` and `/media/a.mp4`, not `/media-private/a.mp4`).
    func contains(_ url: ParsedURL) -> Bool {
        guard url.scheme == scheme, url.host == host, url.port == port else { return false }
        if path == "/" || path.isEmpty { return true }
        guard url.path.hasPrefix(path) else { return false }
        if path.hasSuffix("/") || url.path.count == path.count { return true }
        return url.path.dropFirst(path.count).first == "/"
    }

    public var description: String { "\(scheme)://\(host):\(port)\(path)" }
}

/// An absolute http(s) URL taken apart strictly, for the origin check: no user or password, a host, a port in range,
/// a path whose percent-decoding is valid UTF-8 without NUL and has no `.` or `..` segment (a server resolves those
/// after the check would have passed them), no fragment.
struct ParsedURL: Equatable {
    let scheme: String
    let host: String
    let port: Int
    /// The decoded path.
    let path: String

    init?(_ text: String) {
        guard !text.contains(where: { $0.isWhitespace || $0 == "\\" }), let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.user == nil, components.password == nil, components.fragment == nil,
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65_535).contains(port) else { return nil }
        let encodedPath = components.percentEncodedPath
        guard let path = encodedPath.isEmpty ? "/" : encodedPath.removingPercentEncoding, path.hasPrefix("/"),
              !path.contains("\0") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// `s3://bucket/key` taken apart as one: scheme `s3`, the bucket as the host, port 0, and "/" and the key as
    /// written (S3 resolves no `.` or `..` segment) as the path. With `prefix`, the key may be empty (the whole
    /// bucket). Nil for a malformed bucket name or a key holding NUL.
    init?(s3 text: String, prefix: Bool) {
        guard S3Location.isS3(text) else { return nil }
        let rest = text.dropFirst(S3Location.scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let bucket = String(rest[..<slash])
        let key = String(rest[rest.index(after: slash)...])
        guard S3Location("\(S3Location.scheme)\(bucket)/-") != nil, prefix || !key.isEmpty, !key.contains("\0") else { return nil }
        scheme = "s3"
        host = bucket
        port = 0
        path = "/" + key
    }
}
