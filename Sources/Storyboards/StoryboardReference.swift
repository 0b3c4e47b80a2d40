import StreamManifests

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
}
