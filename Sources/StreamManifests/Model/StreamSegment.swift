/// One segment of a rendition: where its bytes are, what initialises a decoder for it, and when it plays.
public struct StreamSegment: Sendable, Hashable {
    /// The segment's bytes.
    public var resource: StreamResource
    /// The initialisation segment (`EXT-X-MAP`, DASH `Initialization`) that must precede it, for fragmented MP4;
    /// nil for MPEG-TS segments and self-initialising ones.
    public var initialization: StreamResource?
    /// When the segment plays, on the stream's timeline: the playlist's (the sum of the durations before it) for HLS,
    /// the presentation's (the period's start plus the segment's time) for DASH.
    public var timeRange: Range<Duration>
    /// The segment's number: HLS's media sequence number, DASH's `$Number$`.
    public var number: Int64
    /// Where the segment's media starts on its own track's timeline, where the manifest says so (DASH: the
    /// SegmentTimeline's `t`, or the number times the duration, plus `presentationTimeOffset`); nil where only the
    /// segment's bytes tell (HLS).
    public var mediaStart: Duration?
    /// The bytes of its segment index (`sidx`), for a DASH `SegmentBase` that names them; nil otherwise.
    public var indexRange: Range<UInt64>?
    /// HLS's discontinuity sequence number (timestamps and encoding may change where it does); 0 for DASH.
    public var discontinuity: Int64
    /// The wall-clock time of the segment's first sample (HLS `EXT-X-PROGRAM-DATE-TIME`, carried on to later
    /// segments), where the playlist gives one.
    public var programDateTime: StreamDate?
    /// Whether the playlist marks the segment as missing (`EXT-X-GAP`): it must not be fetched.
    public var isGap: Bool
    /// Whether the keyframes inside the segment are found by a search over its bytes (a transport stream file, a
    /// Matroska file without Cues: the whole file is the segment): a job that wants the keyframe near a time inside
    /// it asks for that time, not for the segment's start. False for a playlist's segments.
    public var keyframesFoundBySearch = false

    /// A segment.
    public init(resource: StreamResource, initialization: StreamResource? = nil, timeRange: Range<Duration>,
                number: Int64, mediaStart: Duration? = nil, indexRange: Range<UInt64>? = nil, discontinuity: Int64 = 0,
                programDateTime: StreamDate? = nil, isGap: Bool = false) {
        self.resource = resource
        self.initialization = initialization
        self.timeRange = timeRange
        self.number = number
        self.mediaStart = mediaStart
        self.indexRange = indexRange
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.isGap = isGap
    }
}
