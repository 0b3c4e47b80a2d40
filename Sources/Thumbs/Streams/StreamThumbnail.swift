import ByteSources
import StreamManifests

/// A thumbnail of an HLS or DASH stream, with where in the stream its picture came from.
public struct StreamThumbnail: Sendable {
    /// The thumbnail; its times (`requestedTime`, `actualTime`, `keyframeTime`) are on the stream's timeline (the
    /// playlist's, or the presentation's for DASH), and its cost (`bytesFetched`, `requests`) includes the playlists
    /// and the init segment.
    public var thumbnail: Thumbnail
    /// The rendition the picture was taken from, with its segments.
    public var rendition: StreamRendition
    /// The segment the picture was taken from.
    public var segment: StreamSegment
    /// The wall-clock time of the picture, where the playlist dates its segments (`EXT-X-PROGRAM-DATE-TIME`).
    public var programDateTime: StreamDate?
    /// What making it read, request by request: the playlists, the init segment and the segment, from every
    /// source the stream was read through.
    public var fetchStatistics: FetchStats
}
