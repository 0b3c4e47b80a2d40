import MP4Box
import StreamManifests

/// A keyframe of a `Media`, as a job that shows many of them names it: of a movie, a sync sample of its video track;
/// of a stream, the keyframe that starts a segment of a rendition (an I-frame playlist's entry is one).
package enum MediaKeyframe: Sendable {
    /// A movie's sync sample, shown at `presentationTime` (in the track's timescale).
    case sample(Sample, presentationTime: Int64)
    /// The keyframe starting `segment` of `rendition`.
    case segment(StreamSegment, of: StreamRendition)

    /// Where the keyframe is said to be before it is read: a sample's presentation time in `timescale`; the segment's
    /// start, in milliseconds.
    package func nominalTime(timescale: UInt32) -> MediaTime {
        switch self {
        case .sample(_, let presentationTime):
            MediaTime(value: presentationTime, timescale: timescale)
        case .segment(let segment, _):
            MediaTime(value: segment.timeRange.lowerBound.whole(unitsPerSecond: 1000), timescale: 1000)
        }
    }
}
