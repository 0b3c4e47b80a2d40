import MP4Box
import Thumbs

/// A made storyboard: the cues, where each cue's picture is, and the sheets that hold them.
///
/// A maker's times are whole milliseconds, the resolution of WebVTT timestamps, so the cues are exactly
/// contiguous: cue i covers `i * interval ..< min((i + 1) * interval, duration)`. The writers (WebVTT, HLS, DASH,
/// the manifest) write times to the nearest millisecond.
public struct Storyboard: Sendable, Equatable {
    /// One cue: a time range and the region of a sheet that shows it.
    public struct Cue: Sendable, Equatable {
        /// The span of the movie timeline it covers.
        public var timeRange: Range<Duration>
        /// Position of the sheet in `Storyboard.sheets`.
        public var sheet: Int
        /// The tile's place in the sheet, in pixels (the whole image for single images).
        public var region: PixelRegion
        /// The presentation time of the keyframe shown, in the track's timescale (of a stream, on its timeline).
        public var keyframeTime: MediaTime
        /// The keyframe's sample index (decode order) in the track; of a stream, the number of the segment it starts
        /// (or, in an I-frame playlist, is).
        public var keyframeSample: Int

        /// Makes a cue.
        public init(timeRange: Range<Duration>, sheet: Int, region: PixelRegion, keyframeTime: MediaTime, keyframeSample: Int) {
            self.timeRange = timeRange
            self.sheet = sheet
            self.region = region
            self.keyframeTime = keyframeTime
            self.keyframeSample = keyframeSample
        }
    }

    /// One image file: a sheet of tiles, or a single image.
    public struct Sheet: Sendable, Equatable {
        /// The file name (the template with its number).
        public var fileName: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// How many cues point into it.
        public var tileCount: Int
        /// The encoded size in bytes.
        public var byteCount: Int

        /// Makes a sheet description.
        public init(fileName: String, width: Int, height: Int, tileCount: Int, byteCount: Int) {
            self.fileName = fileName
            self.width = width
            self.height = height
            self.tileCount = tileCount
            self.byteCount = byteCount
        }
    }

    /// The video's presentation duration (the end of the last cue).
    public var duration: Duration
    /// The time between cue starts.
    public var interval: Duration
    /// The tile size.
    public var tileSize: PixelSize
    /// Tiles across a full sheet (1 for single images).
    public var columns: Int
    /// Tile rows in a full sheet (1 for single images).
    public var rows: Int
    /// Whether each cue has its own image (no regions).
    public var singleImages: Bool
    /// The file name template, with `$index$` for the sheet number.
    public var sheetTemplate: String
    /// The number in the first sheet's file name.
    public var firstSheetIndex: Int
    /// The image format.
    public var format: ImageFormat
    /// The cues, in time order.
    public var cues: [Cue]
    /// The sheets, in order.
    public var sheets: [Sheet]
    /// How many distinct keyframes were fetched and decoded.
    public var keyframeCount: Int
    /// The keyframes' bytes (the sum of their sample sizes); of a stream, the bytes read for them (playlists, init
    /// segments, segment heads or I-frame ranges).
    public var keyframeBytes: UInt64

    /// Makes a storyboard description.
    public init(duration: Duration, interval: Duration, tileSize: PixelSize, columns: Int, rows: Int,
                singleImages: Bool, sheetTemplate: String, firstSheetIndex: Int, format: ImageFormat,
                cues: [Cue], sheets: [Sheet], keyframeCount: Int, keyframeBytes: UInt64) {
        self.duration = duration
        self.interval = interval
        self.tileSize = tileSize
        self.columns = columns
        self.rows = rows
        self.singleImages = singleImages
        self.sheetTemplate = sheetTemplate
        self.firstSheetIndex = firstSheetIndex
        self.format = format
        self.cues = cues
        self.sheets = sheets
        self.keyframeCount = keyframeCount
        self.keyframeBytes = keyframeBytes
    }

    /// The WebVTT thumbnail track, with sheet references relative to the track's own location.
    public func webVTT() -> String { WebVTTWriter.write(self) }

    /// The HLS Image Media Playlist (`#EXT-X-IMAGES-ONLY`, `#EXT-X-TILES`), with relative sheet references.
    public func hlsImagePlaylist() -> String { HLSImagePlaylistWriter.write(self) }

    /// A DASH MPD with the thumbnail-tile AdaptationSet of DASH-IF IOP 6.2.6.
    /// - Throws: `StoryboardError` `invalidOption` when a byte cap cut sheets short (DASH needs full grids).
    public func dashManifest() throws(StoryboardError) -> String { try DASHThumbnailWriter.write(self) }

    /// The JSON manifest's contents (encode it with any `Encoder`).
    public var manifest: StoryboardManifest { StoryboardManifest(self) }
}
