#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An allowed origin: an http(s) URL that fetched URLs must start with, compared part by part (scheme, host, port,
/// then the path as a prefix of the decoded path), never as text: `http://a.example@b.example/` does not start
/// with `http://a.example` here, although its text does.
public struct OriginPrefix: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, lower-case.
    public let host: String
    /// The port (80 or 443 when the URL gives none).
    public let port: Int
    /// The path prefix, percent-decoded ("/" for the whole host).
    public let path: String

    /// Parses `text`, an absolute http(s) URL without user name, password, query or fragment.
    /// - Throws: `ServerError` `invalidConfiguration` naming what is wrong.
    public init(_ text: String) throws(ServerError) {
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
}
