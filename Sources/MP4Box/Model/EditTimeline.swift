/// Maps between a track's media time and its presentation time through the edit list (ISO/IEC 14496-12, 8.6.6).
///
/// Presentation time here is on the movie timeline, expressed in the media
/// timescale. An empty edit shifts what follows later; each normal edit shows
/// media from its `mediaTime` for its duration. Dwells (rate 0) and other
/// rates are treated as rate 1. With no edit list, presentation equals media time.
public struct EditTimeline: Sendable {
    /// One shown segment, in media timescale units.
    public struct Segment: Sendable, Equatable {
        /// Where the segment starts on the presentation timeline.
        public var presentationStart: Int64
        /// Where it reads the media.
        public var mediaStart: Int64
        /// Its length.
        public var duration: Int64
    }

    /// The non-empty segments in presentation order.
    public let segments: [Segment]
    /// The total presented duration in media timescale units, or nil with no edit list.
    public let presentedDuration: Int64?

    /// Builds the timeline from `edits` (segment durations in `movieTimescale`) for media at `mediaTimescale`.
    public init(edits: [EditListBox.Entry], movieTimescale: UInt32, mediaTimescale: UInt32) {
        var segments: [Segment] = []
        var position: Int64 = 0
        for edit in edits {
            let clamped = Int64(min(edit.segmentDuration, UInt64(Int64.max / 8)))
            let duration = MediaTime(value: clamped, timescale: movieTimescale).converted(to: mediaTimescale).value
            if !edit.isEmpty {
                segments.append(Segment(presentationStart: position, mediaStart: edit.mediaTime, duration: duration))
            }
            position = position.saturatingAdd(duration)
        }
        self.segments = segments
        self.presentedDuration = edits.isEmpty ? nil : position
    }

    /// The presentation time of media time `mediaTime`.
    ///
    /// A time inside a segment maps through it; a time outside every segment
    /// (such as a B-frame's reference decoded before the first shown frame)
    /// maps through the nearest segment, so it may fall before 0.
    public func presentationTime(ofMediaTime mediaTime: Int64) -> Int64 {
        guard let first = segments.first else { return mediaTime }
        var best = first
        for segment in segments {
            let segmentEnd = segment.mediaStart.saturatingAdd(max(segment.duration, 1))
            if mediaTime >= segment.mediaStart && mediaTime < segmentEnd {
                best = segment
                break
            }
            if mediaTime >= segmentEnd { best = segment }
        }
        return best.presentationStart.saturatingAdd(mediaTime.saturatingSubtract(best.mediaStart))
    }

    /// The media time shown at presentation time `time`; past the end, the last segment is extended.
    public func mediaTime(atPresentationTime time: Int64) -> Int64 {
        guard let first = segments.first else { return time }
        var chosen = first
        for segment in segments where segment.presentationStart <= time {
            chosen = segment
        }
        return chosen.mediaStart.saturatingAdd(time.saturatingSubtract(chosen.presentationStart))
    }
}
