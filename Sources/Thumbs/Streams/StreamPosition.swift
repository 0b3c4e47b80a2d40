import ByteSources
import StreamManifests

/// Where in an HLS or DASH stream a thumbnail's picture came from (`Thumbnail.streamPosition`).
public struct StreamPosition: Sendable {
    /// The rendition the picture was taken from, with its segments.
    public var rendition: StreamRendition
    /// The segment the picture was taken from.
    public var segment: StreamSegment
    /// The wall-clock time of the picture, where the playlist dates its segments (`EXT-X-PROGRAM-DATE-TIME`).
    public var programDateTime: StreamDate?
}
