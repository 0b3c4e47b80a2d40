/// How a URL is shown in a message: its scheme, host, port and path, never its user info, query or fragment (a
/// presigned URL's query is its credential and signature; user info is a password). A query or fragment left out
/// is marked `?…`, so a reader sees there was one.
public enum URLRedaction {
    /// `url` as a message may show it. A URL whose authority is ambiguous (a `?` or `#` before an `@` in it, which
    /// parsers split differently) shows as its scheme alone.
    public static func shown(_ url: String) -> String {
        guard let separator = url.range(of: "://") else {
            return url.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) ? "…" : url
        }
        let scheme = url[..<separator.lowerBound]
        let rest = url[separator.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") {
            guard !authority[..<at].contains(where: { $0 == "?" || $0 == "#" }) else { return scheme + "://…" }
            authority = authority[authority.index(after: at)...]
        }
        // A query may start in the authority ("http://host?q") or after the path.
        let hostEnd = authority.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? authority.endIndex
        let host = authority[..<hostEnd]
        let queryInAuthority = hostEnd < authority.endIndex
        let path = queryInAuthority ? Substring("") : rest[slash...].prefix { $0 != "?" && $0 != "#" }
        let hadQuery = queryInAuthority || path.endIndex < rest.endIndex
        return scheme + "://" + host + path + (hadQuery ? "?…" : "")
    }
}
