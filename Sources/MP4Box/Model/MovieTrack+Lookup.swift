extension MovieTrack {
    /// Samples looked at, at most, around one decode-order position to find the picture on screen at a time.
    ///
    /// Pictures move at most 16 places between decode and presentation order in H.264 and HEVC; a file whose
    /// composition offsets would need a longer search (one hostile offset of years) gets the best answer within
    /// this many samples instead of a walk over the whole track.
    public static let maximumReorderSearch = 256

    /// The sample on screen at presentation time `time` (media timescale units on the movie timeline):
    /// the last sample whose presentation time is <= `time`, or the first shown sample when `time` precedes it.
    ///
    /// O(log n) to find the decode-order neighbourhood, plus the reorder depth of the stream.
    /// - Throws: `MP4Error` when the tables cannot place a sample; returns nil for a track without samples.
    public func sample(displayedAt time: Int64) throws(MP4Error) -> Sample? {
        let count = samples.count
        guard count > 0 else { return nil }
        let target = timeline.mediaTime(atPresentationTime: time)
        let offsets = samples.compositionOffsetRange
        guard let last = samples.lastSample(decodedAtOrBefore: target.saturatingSubtract(offsets.lowerBound)) else {
            return try firstPresentedSample()
        }
        var best: Sample?
        var index = min(last, count - 1)
        let lowest = max(0, index - Self.maximumReorderSearch)
        while index >= lowest {
            let candidate = try samples.sample(at: index)
            if let best, candidate.decodeTime.saturatingAdd(offsets.upperBound) < best.compositionTime { break }
            if candidate.compositionTime <= target && (best.map { candidate.compositionTime > $0.compositionTime } ?? true) {
                best = candidate
            }
            index -= 1
        }
        if let best { return best }
        return try firstPresentedSample()
    }

    /// The sample shown first: the smallest presentation time among the first samples in decode order.
    public func firstPresentedSample() throws(MP4Error) -> Sample? {
        guard samples.count > 0 else { return nil }
        let offsets = samples.compositionOffsetRange
        let first = try samples.sample(at: 0)
        var best = first
        var index = 1
        while index < min(samples.count, Self.maximumReorderSearch) {
            let candidate = try samples.sample(at: index)
            if candidate.decodeTime.saturatingAdd(offsets.lowerBound) > best.compositionTime { break }
            if candidate.compositionTime < best.compositionTime { best = candidate }
            index += 1
        }
        return best
    }

    /// The sync sample whose presentation time is nearest `time` (the earlier one on a tie).
    public func syncSample(nearest time: Int64) throws(MP4Error) -> Sample? {
        guard let shown = try sample(displayedAt: time) else { return nil }
        let syncCount = samples.syncSampleCount
        guard syncCount > 0 else { return nil }
        let around = samples.syncIndex(atOrBefore: shown.index) ?? 0
        var best: Sample?
        var bestDistance = UInt64.max
        for position in max(0, around - 1)...min(syncCount - 1, around + 2) {
            let candidate = try samples.sample(at: samples.sampleIndex(ofSyncSample: position))
            let distance = presentationTime(of: candidate).distanceMagnitude(to: time)
            let earlier = best.map { presentationTime(of: candidate) < presentationTime(of: $0) } ?? true
            if distance < bestDistance || (distance == bestDistance && earlier) {
                best = candidate
                bestDistance = distance
            }
        }
        return best
    }

    /// The last sync sample whose presentation time is <= `time`, or the first sync sample when none is.
    public func syncSample(atOrBefore time: Int64) throws(MP4Error) -> Sample? {
        guard let shown = try sample(displayedAt: time), samples.syncSampleCount > 0 else { return nil }
        var position = samples.syncIndex(atOrBefore: shown.index) ?? 0
        let lowest = max(0, position - Self.maximumReorderSearch)
        while position >= lowest {
            let candidate = try samples.sample(at: samples.sampleIndex(ofSyncSample: position))
            if presentationTime(of: candidate) <= time || position == lowest { return candidate }
            position -= 1
        }
        return nil
    }

    /// The presentation time of `time` seconds in this track's media timescale: the unit that contains that
    /// instant (rounded down, a unit starting within a microsecond after it included: `MediaTime.Rounding.containing`),
    /// since the frame on screen at a time is the last one that starts at or before it.
    /// With a coarse timescale (30 units a second) rounding to nearest would pick the next frame past mid-frame.
    public func presentationTime(seconds: Double) -> Int64 {
        MediaTime(seconds: seconds, timescale: timescale, rounding: .containing).value
    }
}
