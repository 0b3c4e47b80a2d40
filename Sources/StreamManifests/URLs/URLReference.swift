/// Resolution of the URLs a playlist, manifest or thumbnail track names against the URL it was read from, as
/// RFC 3986 section 5.2 resolves references.
public enum URLReference {
    /// `reference` resolved against `base` (the URL or path of the text it came from): absolute URLs (with a scheme)
    /// are kept, `//host/...` takes the base's scheme, `/path` the base's scheme and authority, `?query` the base's
    /// path, `#fragment` the whole base, anything else replaces the base's last path segment; `.` and `..` segments
    /// are removed. The base's query and fragment are dropped otherwise; the reference's are kept.
    public static func resolve(_ reference: String, against base: String?) -> String {
        guard let base, !base.isEmpty, !hasScheme(reference) else { return reference }
        if reference.isEmpty || reference.hasPrefix("#") { return stripping(fragmentOf: base) + reference }
        var trimmedBase = Substring(base)
        if let cut = trimmedBase.firstIndex(where: { $0 == "?" || $0 == "#" }) { trimmedBase = trimmedBase[..<cut] }
        var prefix = Substring("")
        var path = trimmedBase
        if let schemeEnd = trimmedBase.firstRange(of: "://") {
            let scheme = trimmedBase[..<schemeEnd.lowerBound]
            if reference.hasPrefix("//") { return scheme + ":" + reference }
            let afterScheme = trimmedBase[schemeEnd.upperBound...]
            let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            prefix = trimmedBase[..<pathStart]
            path = afterScheme[pathStart...]
        }
        if reference.hasPrefix("?") { return prefix + path + reference }
        let (referencePath, suffix) = splittingQuery(reference)
        if referencePath.hasPrefix("/") { return prefix + removingDotSegments(referencePath) + suffix }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? (prefix.isEmpty ? "" : "/")
        return prefix + removingDotSegments(String(directory) + referencePath) + suffix
    }

    /// Whether `url` starts with a scheme (`https:`, `s3:`, `data:`).
    public static func hasScheme(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return false }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    private static func stripping(fragmentOf url: String) -> String {
        url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }

    /// The path and the query-and-fragment after it (dot segments are removed from the path alone).
    private static func splittingQuery(_ reference: String) -> (path: String, suffix: Substring) {
        guard let cut = reference.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (reference, "") }
        return (String(reference[..<cut]), reference[cut...])
    }

    /// `path` with `.` and `..` segments applied (a leading `/` and a relative start are kept).
    private static func removingDotSegments(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            if position == 0 && absolute { continue }
            let isLast = position == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
                continue
            }
            if segment == ".." {
                if let last = output.last, last != ".." { output.removeLast() } else if !absolute { output.append("..") }
                if isLast { output.append("") }
                continue
            }
            output.append(segment)
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }
}
