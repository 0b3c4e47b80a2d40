/// An image reference of a thumbnail cue: the image's URL and, for a sprite, the region of it to show.
///
/// Reads the media-fragment form `image.jpg#xywh=x,y,w,h` (also `#xywh=pixel:x,y,w,h`) and the bare form
/// `image.jpg#x,y,w,h` some players write. Other fragments stay part of the URL.
public struct StoryboardReference: Sendable, Equatable {
    /// The image URL as written (relative or absolute), without the region fragment.
    public var url: String
    /// The region, or nil for the whole image.
    public var region: PixelRegion?

    /// Makes a reference.
    public init(url: String, region: PixelRegion?) {
        self.url = url
        self.region = region
    }

    /// Parses a cue payload line.
    /// - Throws: `StoryboardError` `missingImage` for an empty reference, `malformedRegion` for an `xywh=` that is
    ///   not four non-negative integers with positive width and height (or uses `percent:`).
    public init(parsing text: String, line: Int? = nil) throws(StoryboardError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw StoryboardError(.missingImage, line: line, "the cue has no image reference") }
        guard let hash = trimmed.lastIndex(of: "#") else {
            self.init(url: trimmed, region: nil)
            return
        }
        let base = String(trimmed[..<hash])
        let fragment = trimmed[trimmed.index(after: hash)...]
        if fragment.hasPrefix("xywh=") {
            var values = fragment.dropFirst(5)
            if values.hasPrefix("pixel:") { values = values.dropFirst(6) }
            guard let region = Self.region(values) else {
                throw StoryboardError(.malformedRegion, line: line, "'#\(fragment)' is not xywh=x,y,w,h in pixels")
            }
            guard !base.isEmpty else { throw StoryboardError(.missingImage, line: line, "'\(trimmed)' names no image") }
            self.init(url: base, region: region)
        } else if fragment.split(separator: ",", omittingEmptySubsequences: false).count == 4 {
            guard let region = Self.region(fragment) else {
                throw StoryboardError(.malformedRegion, line: line, "'#\(fragment)' is not x,y,w,h in pixels")
            }
            guard !base.isEmpty else { throw StoryboardError(.missingImage, line: line, "'\(trimmed)' names no image") }
            self.init(url: base, region: region)
        } else {
            self.init(url: trimmed, region: nil)
        }
    }

    /// Four comma-separated integers, x and y >= 0, w and h > 0.
    private static func region(_ text: Substring) -> PixelRegion? {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Int? in
            let trimmed = part.trimmingASCIIWhitespace()
            guard !trimmed.isEmpty, trimmed.count <= 9, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(trimmed)
        }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
              width > 0, height > 0 else { return nil }
        return PixelRegion(x: x, y: y, width: width, height: height)
    }

    /// `url` resolved against `base` (the URL or path of the track it came from), as RFC 3986 section 5.2 does for
    /// the common cases: absolute URLs (with a scheme) are kept, `//host/...` takes the base's scheme, `/path`
    /// the base's scheme and authority, anything else replaces the base's last path segment, with `.` and `..`
    /// segments removed. The base's query and fragment are dropped.
    public static func resolve(_ url: String, against base: String?) -> String {
        guard let base, !base.isEmpty, !hasScheme(url) else { return url }
        var trimmedBase = Substring(base)
        if let cut = trimmedBase.firstIndex(where: { $0 == "?" || $0 == "#" }) { trimmedBase = trimmedBase[..<cut] }
        var prefix = Substring("")
        var path = trimmedBase
        if let schemeEnd = trimmedBase.firstRange(of: "://") {
            let scheme = trimmedBase[..<schemeEnd.lowerBound]
            if url.hasPrefix("//") { return scheme + ":" + url }
            let afterScheme = trimmedBase[schemeEnd.upperBound...]
            let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            prefix = trimmedBase[..<pathStart]
            path = afterScheme[pathStart...]
        }
        if url.hasPrefix("/") { return prefix + removingDotSegments(url) }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? ""
        let joined = String(directory) + url
        return prefix + removingDotSegments(joined)
    }

    private static func hasScheme(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return false }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// `path` with `.` and `..` segments applied (a leading `/` and a relative start are kept).
    private static func removingDotSegments(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            if position == 0 && absolute { continue }
            if segment == "." { continue }
            if segment == ".." {
                if let last = output.last, last != ".." { output.removeLast() } else if !absolute { output.append("..") }
                continue
            }
            output.append(segment)
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, carriage returns and line feeds.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
