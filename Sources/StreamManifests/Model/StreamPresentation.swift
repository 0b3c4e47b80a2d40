/// A stream as its playlist or manifest describes it: periods of renditions of segments, on one timeline.
public struct StreamPresentation: Sendable, Hashable {
    /// How the stream is described.
    public enum Format: String, Sendable, Hashable {
        /// HTTP Live Streaming (RFC 8216): an `.m3u8` playlist.
        case hls
        /// MPEG-DASH (ISO/IEC 23009-1): an `.mpd` manifest.
        case dash
        /// A Matroska or WebM file (RFC 9559), described by its own index: its video track is the one rendition, and
        /// the spans between its cue points are the segments (the Thumbs module reads it so).
        case matroska
        /// A bare MPEG transport stream file (`.ts`, `.m2ts`): its first program's video is the one rendition, and the
        /// whole file one segment, whose times a search finds (the Thumbs module reads it so).
        case transportStream = "mpeg-ts"
    }

    /// How the stream is described.
    public var format: Format
    /// The URL the playlist or manifest was read from (references in it are resolved against it).
    public var url: String?
    /// Whether the stream is live: segments are still being added (an HLS media playlist without `EXT-X-ENDLIST`, a
    /// DASH manifest of `type="dynamic"`). A master playlist is not known to be live until a media playlist is read.
    public var isLive: Bool
    /// The periods, in order of time.
    public var periods: [StreamPeriod]
    /// How long the whole stream is, where known.
    public var duration: Duration?
    /// The wall-clock time of the start of a live DASH stream (`availabilityStartTime`).
    public var availabilityStartTime: StreamDate?
    /// How far back from the live edge a live stream's segments stay available (`timeShiftBufferDepth`).
    public var timeShiftBufferDepth: Duration?

    /// A presentation.
    public init(format: Format, url: String?, isLive: Bool, periods: [StreamPeriod], duration: Duration?,
                availabilityStartTime: StreamDate? = nil, timeShiftBufferDepth: Duration? = nil) {
        self.format = format
        self.url = url
        self.isLive = isLive
        self.periods = periods
        self.duration = duration
        self.availabilityStartTime = availabilityStartTime
        self.timeShiftBufferDepth = timeShiftBufferDepth
    }

    /// The period playing at `time`: the last that starts at or before it (the first for earlier times).
    public func period(at time: Duration) -> StreamPeriod? {
        periods.last { $0.start <= time } ?? periods.first
    }
}
