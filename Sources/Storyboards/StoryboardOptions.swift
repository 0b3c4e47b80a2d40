import ByteSources
import Thumbs

/// What a storyboard looks like: how often a tile is taken, the tile size, the sheet grid, the image format.
///
/// The defaults are what players expect: about 50 tiles for a video under 15 minutes and about 100 above
/// (`interval` nil), tiles 160 pixels wide with the height from the picture's aspect ratio, 10 x 10 tiles a
/// sheet, JPEG at quality 75.
public struct StoryboardOptions: Sendable, Hashable {
    /// The time between cue starts, rounded to the nearest millisecond (the resolution of WebVTT times); nil picks
    /// one from the duration (`defaultInterval(forDuration:)`).
    public var interval: Duration?
    /// Tile width in pixels. Default 160.
    public var tileWidth: Int = 160
    /// Tile height in pixels; nil takes it from the picture's display aspect ratio. When both sides are given
    /// and the aspect ratio differs, the picture is fitted inside the tile on black (`.pad`).
    public var tileHeight: Int?
    /// Tiles across a sheet. Default 10.
    public var columns: Int = 10
    /// Tile rows in a sheet. Default 10.
    public var rows: Int = 10
    /// The encoding of the images. Default JPEG quality 75.
    public var format: ImageFormat = .jpeg(quality: 75)
    /// One image per cue instead of sheets: cues then carry no `#xywh` region.
    public var singleImages = false
    /// Start a new sheet before one would pass this many encoded bytes (estimated from each tile's own
    /// encoding). nil: sheets are cut only when full.
    public var maximumSheetBytes: Int?
    /// The image file name, with `$index$` standing for the sheet (or image) number, counted from
    /// `firstSheetIndex`. nil: `storyboard-$index$.` plus the format's extension.
    public var sheetTemplate: String?
    /// The number of the first sheet in file names. Default 1, as DASH's `$Number$`.
    public var firstSheetIndex = 1
    /// When set, the maker also writes Roku's BIF under this name, through `write` after the sheets: one JPEG per cue
    /// at the tile size (the format's quality, or 75 for PNG sheets), from the same decoded keyframes.
    public var bifFileName: String?
    /// Keyframe reads closer than this many bytes are merged into one request. Default 0: only touching
    /// ranges merge; keyframes are a GOP apart, and merging across the gap would read the whole GOP.
    public var coalescingGap: UInt64 = 0
    /// Keyframe reads in flight at once. Default 4.
    public var maximumConcurrentFetches = 4
    /// Keyframes decoded at once, one decoder each; nil: one per processor core.
    public var maximumConcurrentDecodes: Int?
    /// Whether the track's matrix turns the picture upright. Default on.
    public var appliesPreferredTrackTransform = true

    /// The defaults.
    public init() {}

    /// The file name template in effect.
    public var effectiveSheetTemplate: String {
        sheetTemplate ?? "storyboard-$index$.\(format.fileExtension)"
    }

    /// The interval players expect for a video of `duration`: about 50 cues under 15 minutes, about 100 from 15
    /// minutes on, never below one second, rounded up to a tenth of a second.
    public static func defaultInterval(forDuration duration: Duration) -> Duration {
        guard duration > .zero else { return .seconds(1) }
        let milliseconds = duration.nearestMilliseconds
        let target: Int64 = duration < .seconds(15 * 60) ? 50 : 100
        let raw = milliseconds / target + (milliseconds % target == 0 ? 0 : 1)
        let tenths = (raw / 100 + (raw % 100 == 0 ? 0 : 1)) * 100
        return .milliseconds(max(1000, min(tenths, 1_000_000_000_000)))
    }

    /// The file name of sheet (or image) number `index`, counted from `firstSheetIndex`.
    public func sheetFileName(_ index: Int) -> String {
        Self.fileName(template: effectiveSheetTemplate, index: index)
    }

    /// `template` with every `$index$` replaced by `index`.
    public static func fileName(template: String, index: Int) -> String {
        template.replacing("$index$", with: String(index))
    }

    /// Checks the options.
    /// - Throws: `StoryboardError` `invalidOption` for an interval under 1 ms or over 10^9 s, a non-positive tile side, grid
    ///   side, quality outside 1...100, a template without `$index$` (with more than one image), or a
    ///   concurrency below 1.
    public func validate() throws(StoryboardError) {
        if let interval, !(interval >= .milliseconds(1) && interval <= .seconds(1_000_000_000)) {
            throw StoryboardError(.invalidOption, "interval \(interval.seconds) s is not between 0.001 s and 10^9 s")
        }
        guard (1...4096).contains(tileWidth) else {
            throw StoryboardError(.invalidOption, "tile width \(tileWidth) is outside 1...4096")
        }
        if let tileHeight, !(1...4096).contains(tileHeight) {
            throw StoryboardError(.invalidOption, "tile height \(tileHeight) is outside 1...4096")
        }
        guard (1...256).contains(columns), (1...256).contains(rows) else {
            throw StoryboardError(.invalidOption, "a grid of \(columns)x\(rows) is outside 1...256 on a side")
        }
        let sheetPixels = tileWidth * columns * (tileHeight ?? tileWidth * 4) * rows
        guard sheetPixels <= Renderer.maximumOutputPixelCount else {
            throw StoryboardError(.invalidOption, "a sheet of \(columns)x\(rows) tiles of width \(tileWidth) is too large")
        }
        if case .jpeg(let quality) = format, !(1...100).contains(quality) {
            throw StoryboardError(.invalidOption, "jpeg quality \(quality) is outside 1...100")
        }
        if case .webp(let quality, _) = format, !(0...100).contains(quality) {
            throw StoryboardError(.invalidOption, "webp quality \(quality) is outside 0...100")
        }
        if let maximumSheetBytes, maximumSheetBytes < 1 {
            throw StoryboardError(.invalidOption, "maximum sheet bytes \(maximumSheetBytes) is not positive")
        }
        guard effectiveSheetTemplate.contains("$index$") else {
            throw StoryboardError(.invalidOption, "sheet template '\(effectiveSheetTemplate)' has no $index$")
        }
        if let bifFileName, bifFileName.isEmpty || bifFileName.contains("/") {
            throw StoryboardError(.invalidOption, "BIF file name '\(bifFileName)' is empty or has a '/'")
        }
        guard maximumConcurrentFetches >= 1, (maximumConcurrentDecodes ?? 1) >= 1 else {
            throw StoryboardError(.invalidOption, "concurrency must be at least 1")
        }
    }
}
