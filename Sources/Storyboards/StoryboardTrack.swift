import MP4Box
import StreamManifests
import Thumbs

/// A thumbnail track read back: from a WebVTT file (sprites with `#xywh=`, the bare `#x,y,w,h` form, or single
/// images) or from a grid template; answers which image and region to show at a time.
public struct StoryboardTrack: Sendable, Equatable {
    /// One cue (made by the track's readers only: a track is always read).
    public struct Cue: Sendable, Equatable {
        /// The span of the timeline it covers (never empty: a cue ends after it starts).
        public var timeRange: Range<Duration>
        /// The image and region.
        public var reference: StoryboardReference
        /// The 1-based line of the timing line in the WebVTT text (0 for a grid).
        public var line: Int
    }

    /// What to show at one time: an image, and the region of it when the image is a sprite sheet.
    public struct Tile: Sendable, Equatable {
        /// The image URL, resolved against the track's base when it was relative.
        public var url: String
        /// The region of the image, or nil for the whole image.
        public var region: PixelRegion?
        /// The cue's span of the timeline.
        public var timeRange: Range<Duration>
    }

    /// The cues, sorted by start time (stable: cues that start together keep their order).
    public private(set) var cues: [Cue]
    /// Where the track came from (a URL or a path), to resolve relative references; nil keeps them as written.
    public var baseURL: String?

    /// Cues above this many are refused: a text this long is not a thumbnail track.
    public static let maximumCueCount = 1_000_000

    /// Reads a WebVTT thumbnail track.
    ///
    /// The text must start with `WEBVTT` (after an optional byte order mark). Blocks are separated by blank
    /// lines; `NOTE`, `STYLE` and `REGION` blocks and the header are skipped. A cue is an optional identifier
    /// line, a timing line `start --> end [settings]`, and a payload whose first line is the image reference.
    /// - Throws: `StoryboardError` `notWebVTT`, `malformedTiming`, `missingImage` or `malformedRegion`, with the
    ///   line number.
    public init(webVTT text: String, baseURL: String? = nil) throws(StoryboardError) {
        self.baseURL = baseURL
        var lines: [Substring] = []
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // Line ends: CRLF, CR or LF.
        var start = body.startIndex
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(body[start..<index])
                index = body.index(after: index)
                start = index
            } else {
                index = body.index(after: index)
            }
        }
        lines.append(body[start..<body.endIndex])

        guard let signature = lines.first, signature.hasPrefix("WEBVTT"),
              signature.count == 6 || signature.dropFirst(6).first == " " || signature.dropFirst(6).first == "\t" else {
            throw StoryboardError(.notWebVTT, line: 1, "the text does not start with WEBVTT")
        }
        var parsed: [Cue] = []
        var position = 1
        // Skip the rest of the header block.
        while position < lines.count, !lines[position].isEmpty { position += 1 }
        while position < lines.count {
            while position < lines.count, lines[position].trimmingASCIIWhitespace().isEmpty { position += 1 }
            guard position < lines.count else { break }
            let blockStart = position
            var blockEnd = position
            while blockEnd < lines.count, !lines[blockEnd].trimmingASCIIWhitespace().isEmpty { blockEnd += 1 }
            defer { position = blockEnd }
            let first = lines[blockStart]
            if !first.contains("-->"), first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION") {
                continue
            }
            var timing = blockStart
            if !lines[timing].contains("-->") { timing += 1 }
            guard timing < blockEnd, lines[timing].contains("-->") else {
                throw StoryboardError(.malformedTiming, line: blockStart + 1, "the cue has no 'start --> end' line")
            }
            let (cueStart, cueEnd) = try Self.timing(lines[timing], line: timing + 1)
            guard timing + 1 < blockEnd else {
                throw StoryboardError(.missingImage, line: timing + 2, "the cue has no image reference")
            }
            let reference = try StoryboardReference(parsing: String(lines[timing + 1]), line: timing + 2)
            guard parsed.count < Self.maximumCueCount else {
                throw StoryboardError(.malformedTiming, line: timing + 1, "more than \(Self.maximumCueCount) cues")
            }
            parsed.append(Cue(timeRange: cueStart..<cueEnd, reference: reference, line: timing + 1))
        }
        cues = Self.sorted(parsed)
    }

    /// A track from grid parameters: tile n covers `n * interval ..< min((n + 1) * interval, duration)` and is
    /// at column `n % columns`, row `n / columns % rows` of image `firstIndex + n / (columns * rows)` (the
    /// template with `$index$` replaced). With `singleImages`, each tile is a whole image. The interval and duration
    /// are taken to the nearest millisecond, as grids are written.
    /// - Throws: `StoryboardError` `invalidGrid` for non-positive sizes, an interval or duration under 1 ms, a template
    ///   without `$index$`, or more than `maximumCueCount` tiles.
    public init(gridTemplate template: String, tileWidth: Int, tileHeight: Int, columns: Int, rows: Int,
                interval: Duration, duration: Duration, firstIndex: Int = 1, singleImages: Bool = false,
                baseURL: String? = nil) throws(StoryboardError) {
        let intervalMilliseconds = interval.nearestMilliseconds
        let durationMilliseconds = duration.nearestMilliseconds
        guard tileWidth > 0, tileHeight > 0, columns > 0, rows > 0, columns <= 1 << 16, rows <= 1 << 16,
              intervalMilliseconds > 0, durationMilliseconds > 0 else {
            throw StoryboardError(.invalidGrid, "the grid's sizes must be positive, its interval and duration 1 ms or more")
        }
        guard template.contains("$index$") else { throw StoryboardError(.invalidGrid, "template '\(template)' has no $index$") }
        let count = durationMilliseconds / intervalMilliseconds + (durationMilliseconds % intervalMilliseconds == 0 ? 0 : 1)
        guard count <= Int64(Self.maximumCueCount) else {
            throw StoryboardError(.invalidGrid, "the grid has \(count) tiles, more than \(Self.maximumCueCount)")
        }
        self.baseURL = baseURL
        let perSheet = singleImages ? 1 : columns * rows
        let tileSize = PixelSize(width: tileWidth, height: tileHeight)
        cues = (0..<Int(count)).map { tile in
            let slot = tile % perSheet
            let url = StoryboardOptions.fileName(template: template, index: firstIndex + tile / perSheet)
            let region = singleImages ? nil : PixelRegion(slot: slot, columns: columns, tileSize: tileSize)
            let start = Int64(tile) * intervalMilliseconds
            let end = durationMilliseconds - start <= intervalMilliseconds ? durationMilliseconds : start + intervalMilliseconds
            return Cue(timeRange: .milliseconds(start) ..< .milliseconds(end),
                       reference: StoryboardReference(url: url, region: region), line: 0)
        }
    }

    /// A track from a manifest's grid parameters (not its cue list).
    /// - Throws: `StoryboardError` `invalidGrid` as the grid initialiser, or when the manifest says its grid is not uniform.
    public init(manifest: StoryboardManifest, baseURL: String? = nil) throws(StoryboardError) {
        guard manifest.uniformGrid else {
            throw StoryboardError(.invalidGrid, "the manifest's sheets were cut early: tiles are not addressable by index")
        }
        try self.init(gridTemplate: manifest.sheetTemplate, tileWidth: manifest.tileWidth, tileHeight: manifest.tileHeight,
                      columns: manifest.columns, rows: manifest.rows, interval: .milliseconds(manifest.intervalMs),
                      duration: .milliseconds(manifest.durationMs), firstIndex: manifest.firstSheetIndex,
                      singleImages: manifest.singleImages, baseURL: baseURL)
    }

    /// The tile for `time`: the cue containing it; else the nearest cue that ends at or before it; else the first
    /// cue after it. nil only for a track without cues.
    public func tile(at time: Duration) -> Tile? {
        guard !cues.isEmpty else { return nil }
        // The last cue starting at or before `time`.
        let low = BinarySearch.prefixCount(cues.count) { cues[$0].timeRange.lowerBound <= time }
        guard low > 0 else { return answer(cues[0]) }
        // Among the cues that start at or before `time`, one that still runs at `time`, latest start first.
        var index = low - 1
        while index >= 0, index >= low - 64 {
            if cues[index].timeRange.upperBound > time { return answer(cues[index]) }
            index -= 1
        }
        // None runs at `time`: the one that ended last before it.
        let before = cues[..<low].max { $0.timeRange.upperBound < $1.timeRange.upperBound } ?? cues[low - 1]
        return answer(before)
    }

    private func answer(_ cue: Cue) -> Tile {
        Tile(url: URLReference.resolve(cue.reference.url, against: baseURL), region: cue.reference.region,
             timeRange: cue.timeRange)
    }

    /// Parses `start --> end [settings]`.
    private static func timing(_ text: Substring, line: Int) throws(StoryboardError) -> (Duration, Duration) {
        guard let arrow = text.firstRange(of: "-->") else {
            throw StoryboardError(.malformedTiming, line: line, "no '-->'")
        }
        let startText = text[..<arrow.lowerBound].trimmingASCIIWhitespace()
        let rest = text[arrow.upperBound...].trimmingASCIIWhitespace()
        let endText = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        guard let start = WebVTTTimestamp.parse(startText) else {
            throw StoryboardError(.malformedTiming, line: line, "'\(startText)' is not a WebVTT timestamp")
        }
        guard let end = WebVTTTimestamp.parse(endText) else {
            throw StoryboardError(.malformedTiming, line: line, "'\(endText)' is not a WebVTT timestamp")
        }
        guard end > start else {
            throw StoryboardError(.malformedTiming, line: line, "the cue ends at \(endText), not after its start \(startText)")
        }
        return (start, end)
    }

    private static func sorted(_ cues: [Cue]) -> [Cue] {
        cues.enumerated().sorted { ($0.element.timeRange.lowerBound, $0.offset) < ($1.element.timeRange.lowerBound, $1.offset) }
            .map(\.element)
    }
}
