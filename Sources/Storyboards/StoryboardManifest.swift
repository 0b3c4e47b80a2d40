/// The JSON manifest of a storyboard: the grid parameters a GridThumbnail-style player needs to address tiles
/// by index and duration without the WebVTT, plus every sheet and cue as the WebVTT has them.
///
/// Tile n (0-based) covers `n * intervalMs ..< min((n + 1) * intervalMs, durationMs)`, lies in sheet
/// `firstSheetIndex + n / (columns * rows)` (the file `sheetTemplate` with `$index$` replaced), at column
/// `n % columns` and row `n / columns % rows` of that sheet — when `uniformGrid` is true. A byte cap that cut
/// sheets early makes it false; then only `cues` place the tiles.
public struct StoryboardManifest: Codable, Sendable, Equatable {
    /// One image file.
    public struct Sheet: Codable, Sendable, Equatable {
        /// The file name, relative to the manifest.
        public var file: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Tiles in it.
        public var tiles: Int
        /// Encoded size in bytes.
        public var bytes: Int
    }

    /// One cue, as in the WebVTT.
    public struct Cue: Codable, Sendable, Equatable {
        /// Start in milliseconds.
        public var startMs: Int64
        /// End (exclusive) in milliseconds.
        public var endMs: Int64
        /// The image file.
        public var file: String
        /// Region left edge (absent for single images).
        public var x: Int?
        /// Region top edge.
        public var y: Int?
        /// Region width.
        public var w: Int?
        /// Region height.
        public var h: Int?
        /// Presentation time of the keyframe shown, in seconds.
        public var keyframeTime: Double
    }

    /// The manifest's format version (1).
    public var version: Int
    /// The video's duration in milliseconds.
    public var durationMs: Int64
    /// The video's duration in seconds.
    public var duration: Double
    /// Milliseconds between tiles.
    public var intervalMs: Int64
    /// Seconds between tiles (a tile's duration in a grid).
    public var interval: Double
    /// Tile width in pixels.
    public var tileWidth: Int
    /// Tile height in pixels.
    public var tileHeight: Int
    /// Tiles across a full sheet.
    public var columns: Int
    /// Tile rows in a full sheet.
    public var rows: Int
    /// Tiles (cues) in all.
    public var tileCount: Int
    /// Image files in all.
    public var sheetCount: Int
    /// The file name template, `$index$` standing for the sheet number.
    public var sheetTemplate: String
    /// The number of the first sheet.
    public var firstSheetIndex: Int
    /// `jpeg`, `png` or `webp`.
    public var format: String
    /// `image/jpeg`, `image/png` or `image/webp`.
    public var mediaType: String
    /// Whether every cue has its own image (no regions).
    public var singleImages: Bool
    /// Whether tiles can be addressed from the grid parameters alone (every sheet but the last is full).
    public var uniformGrid: Bool
    /// The image files.
    public var sheets: [Sheet]
    /// The cues.
    public var cues: [Cue]

    /// The manifest of `storyboard`.
    public init(_ storyboard: Storyboard) {
        version = 1
        durationMs = storyboard.duration.nearestMilliseconds
        duration = Double(durationMs) / 1000
        intervalMs = storyboard.interval.nearestMilliseconds
        interval = Double(intervalMs) / 1000
        tileWidth = storyboard.tileSize.width
        tileHeight = storyboard.tileSize.height
        columns = storyboard.columns
        rows = storyboard.rows
        tileCount = storyboard.cues.count
        sheetCount = storyboard.sheets.count
        sheetTemplate = storyboard.sheetTemplate
        firstSheetIndex = storyboard.firstSheetIndex
        format = storyboard.format.name
        mediaType = storyboard.format.mediaType
        singleImages = storyboard.singleImages
        let perSheet = storyboard.columns * storyboard.rows
        uniformGrid = storyboard.sheets.dropLast().allSatisfy { $0.tileCount == perSheet }
        sheets = storyboard.sheets.map {
            Sheet(file: $0.fileName, width: $0.width, height: $0.height, tiles: $0.tileCount, bytes: $0.byteCount)
        }
        cues = storyboard.cues.map { cue in
            let file = storyboard.sheets.indices.contains(cue.sheet) ? storyboard.sheets[cue.sheet].fileName : ""
            let single = storyboard.singleImages
            return Cue(startMs: cue.timeRange.lowerBound.nearestMilliseconds, endMs: cue.timeRange.upperBound.nearestMilliseconds, file: file,
                       x: single ? nil : cue.region.x, y: single ? nil : cue.region.y, w: single ? nil : cue.region.width,
                       h: single ? nil : cue.region.height, keyframeTime: cue.keyframeTime.seconds)
        }
    }

    /// The JSON (`StableJSON`: sorted keys, indented, slashes unescaped), as `storyboard.json` holds it.
    public func json() throws -> [UInt8] { try StableJSON.encode(self) }
}
