import MP4Box
import StreamManifests

/// A keyframe of a `Media`, as a job that shows many of them names it: of a movie, a sync sample of its video track;
/// of a stream, the keyframe that starts a segment of a rendition (an I-frame playlist's entry is one), or in a
/// segment whose keyframes a search finds (a transport stream file, a Matroska file without Cues), the one nearest a
/// time.
package enum MediaKeyframe: Sendable {
    /// A movie's sync sample, shown at `presentationTime` (in the track's timescale).
    case sample(Sample, presentationTime: Int64)
    /// The keyframe starting `segment` of `rendition`.
    case segment(StreamSegment, of: StreamRendition)
    /// The keyframe nearest `time` (on the stream's timeline) in `segment` of `rendition`, whose keyframes a search
    /// finds (`StreamSegment.keyframesFoundBySearch`).
    case searched(StreamSegment, of: StreamRendition, near: Duration)

    /// Where the keyframe is said to be before it is read: a sample's presentation time in `timescale`; the segment's
    /// start (or the time searched near), in milliseconds.
    package func nominalTime(timescale: UInt32) -> MediaTime {
        switch self {
        case .sample(_, let presentationTime):
            MediaTime(value: presentationTime, timescale: timescale)
        case .segment(let segment, _):
            MediaTime(value: segment.timeRange.lowerBound.whole(unitsPerSecond: 1000), timescale: 1000)
        case .searched(_, _, let time):
            MediaTime(value: time.whole(unitsPerSecond: 1000), timescale: 1000)
        }
    }
}
