/// Where pictures are on a rendition's timeline, the one way every job places a time: the segment on screen at a time
/// (through gaps a playlist marks and holes between segments, the last picture before them stays on screen), the
/// segment whose start (a keyframe) is nearest a time, and the live edge of segments without an end.
extension StreamSegments {
    /// Gaps looked past, each way, before a time is said to have no segment with pictures near it.
    public static let maximumGapsSkipped = 1_000

    /// The index of the segment playing at `time`; else of the first when the time is before the segments start, and
    /// of the one before the time in a hole of the timeline or after the end (its last picture is the one on screen
    /// then); nil for no segments.
    public func index(playingAt time: Duration) -> Int? {
        if let found = index(containing: time) { return found }
        guard let first else { return nil }
        if time < first.timeRange.lowerBound { return 0 }
        return index(startingAtOrBefore: time)
    }

    /// The index of the segment with pictures on screen at segment `index`: `index` itself, or, when it is a gap a
    /// playlist marks (`EXT-X-GAP`), the last one before it that is not a gap, at most `maximumGapsSkipped` back.
    /// Nil when there is none (or only the first segment, itself a gap).
    public func pictureIndex(atOrBefore index: Int) -> Int? {
        var index = index
        var skipped = 0
        while index > 0, skipped < Self.maximumGapsSkipped, segment(at: index)?.isGap == true {
            index -= 1
            skipped += 1
        }
        guard let segment = segment(at: index), !segment.isGap else { return nil }
        return index
    }

    /// The index of the segment whose start is nearest `time` (the earlier on a tie): the one playing at the time or
    /// the next; past gaps, the nearest before it that is not one, else after, at most `maximumGapsSkipped` each way.
    /// Nil when only gaps are near.
    public func index(startingNearest time: Duration) -> Int? {
        guard let playing = index(playingAt: time) else { return nil }
        var chosen = playing
        if let this = segment(at: playing), let next = segment(at: playing + 1), !next.isGap,
           this.isGap || next.timeRange.lowerBound - time < time - this.timeRange.lowerBound {
            chosen = playing + 1
        }
        for step in 0...Self.maximumGapsSkipped {
            if let before = segment(at: chosen - step), !before.isGap { return chosen - step }
            if let after = segment(at: chosen + step), !after.isGap { return chosen + step }
        }
        return nil
    }

    /// Of segments without an end (a live DASH template without a timeline), the start of the one playing at `now`
    /// (since the Unix epoch) on a presentation available from `availabilityStart`: it is still being made, so the
    /// newest whole segment ends there. Nil for segments with an end, or when none plays then.
    public func liveEdge(availabilityStart: StreamDate?, now: Duration) -> Duration? {
        guard count == nil, let availabilityStart, let playing = index(containing: now - availabilityStart.sinceEpoch) else {
            return nil
        }
        return segment(at: playing)?.timeRange.lowerBound
    }
}
