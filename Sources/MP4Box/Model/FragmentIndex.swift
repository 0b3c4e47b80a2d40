/// A fragmented movie's fragments as the segment index (sidx) of its video track lists them: where each
/// subsegment's bytes are and from what media time it plays.
///
/// It lets a thumbnail read the one or two moofs its time needs instead of every moof in the file
/// (`MovieLocator.Options.fragmentReading`): the sidx is in the file's head, next to moov, while the moofs are
/// spread through the file, one per subsegment.
public struct FragmentIndex: Sendable {
    /// One subsegment: a moof and the media data after it.
    public struct Subsegment: Sendable, Equatable {
        /// Where it is in the file; it starts with its moof.
        public var byteRange: Range<UInt64>
        /// The earliest presentation time of its samples (media time, in the track's timescale).
        public var earliestTime: Int64
        /// Whether it starts with a stream access point (its first sample is a sync sample).
        public var startsWithSAP: Bool
    }

    /// The track the index describes.
    public let trackID: UInt32
    /// The subsegments, in file and time order.
    public let subsegments: [Subsegment]
    /// The media time the last subsegment ends at, in the track's timescale.
    public let endTime: Int64

    /// The index `sidx` gives for a track with `timescale`, or nil when it does not describe plain media subsegments
    /// (it points at other indexes, lists none or more than `limits.maximumFragmentCount`, has no timescale, or
    /// places one past the largest file offset).
    init?(sidx: SegmentIndexBox, timescale: UInt32, limits: ParseLimits) {
        guard sidx.timescale > 0, !sidx.references.isEmpty, sidx.references.count <= limits.maximumFragmentCount,
              sidx.references.allSatisfy({ !$0.referencesIndex && $0.referencedSize > 0 }),
              sidx.earliestPresentationTime < UInt64(Int64.max >> 2),
              let places = sidx.subsegments else { return nil }
        // A sum of at most 65,535 32-bit durations after a start below 2^61: no overflow.
        var time = sidx.earliestPresentationTime
        var subsegments: [Subsegment] = []
        subsegments.reserveCapacity(places.count)
        for (reference, place) in zip(sidx.references, places) {
            let start = MediaTime(value: Int64(time), timescale: sidx.timescale).converted(to: timescale).value
            subsegments.append(Subsegment(byteRange: place.offset..<place.offset + place.size, earliestTime: start,
                                          startsWithSAP: reference.startsWithSAP))
            time += UInt64(reference.subsegmentDuration)
        }
        trackID = sidx.referenceID
        self.subsegments = subsegments
        endTime = MediaTime(value: Int64(time), timescale: sidx.timescale).converted(to: timescale).value
    }

    /// The subsegments a picture at presentation time `time` (on `timeline`, in the track's timescale) may need:
    /// the one playing at `time`; back to the one that starts with a sync sample, for a frame decoded from the
    /// keyframe before it; and the next one when its first sync sample may be nearer `time` than any before it.
    /// `shift` is how far the samples' composition times sit after the index's (`Movie.fragmentIndexShift`).
    public func subsegments(around time: Int64, timeline: EditTimeline, shift: Int64 = 0) -> ClosedRange<Int> {
        let starts = subsegments.map { timeline.presentationTime(ofMediaTime: $0.earliestTime.saturatingAdd(shift)) }
        let playing = max(0, BinarySearch.prefixCount(starts.count) { starts[$0] <= time } - 1)
        var first = playing
        while first > 0 && !subsegments[first].startsWithSAP { first -= 1 }
        var last = playing
        let next = playing + 1
        if next < subsegments.count, subsegments[next].startsWithSAP,
           starts[next].saturatingSubtract(time) < time.saturatingSubtract(starts[first]) {
            last = next
        }
        return first...last
    }

    /// The position of the subsegment whose bytes hold `offset`, if one does.
    public func subsegment(holding offset: UInt64) -> Int? {
        let position = BinarySearch.prefixCount(subsegments.count) { subsegments[$0].byteRange.lowerBound <= offset } - 1
        guard position >= 0, subsegments[position].byteRange.contains(offset) else { return nil }
        return position
    }
}
