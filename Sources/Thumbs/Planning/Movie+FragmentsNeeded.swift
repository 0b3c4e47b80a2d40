import MP4Box

extension Movie {
    /// The unread subsegments a picture of the thumbnail track at presentation time `time` (its timescale) may
    /// need (`FragmentIndex.subsegments(around:timeline:shift:)`, with the index's times shifted as the samples
    /// read show), and the next one when the samples read end before `time`; every unread one when the index is
    /// another track's; nil when none is missing.
    func subsegments(around time: Int64) -> [Int]? {
        guard hasUnreadFragments, let index = fragmentIndex else { return nil }
        guard let track = try? thumbnailTrack(), track.id == index.trackID else {
            return unread(Array(index.subsegments.indices))
        }
        let around = index.subsegments(around: time, timeline: track.timeline, shift: fragmentIndexShift ?? 0)
        if let missing = unread(Array(around)) { return missing }
        // All read: a frame shown at `time` after the last one they hold is in the next subsegment (a leading
        // picture of its keyframe, in an open GOP).
        guard let end = presentationEnd(of: around.upperBound, in: track, index: index), time >= end else { return nil }
        return unread([around.upperBound + 1].filter { index.subsegments.indices.contains($0) })
    }

    /// When the last picture of subsegment `position` (read) stops being shown; nil when that cannot be told cheaply.
    private func presentationEnd(of position: Int, in track: MovieTrack, index: FragmentIndex) -> Int64? {
        let range = index.subsegments[position].byteRange
        let samples = track.samples
        // The subsegment's samples: those from the last sample before its end back while they lie in it.
        let after = BinarySearch.prefixCount(samples.count) { (try? samples.sample(at: $0).offset < range.upperBound) ?? false }
        var end: Int64?
        for index in stride(from: after - 1, through: max(0, after - Self.endSearchLimit), by: -1) {
            guard let sample = try? samples.sample(at: index), range.contains(sample.offset) else { break }
            end = max(end ?? .min, track.presentationTime(of: sample).saturatingAdd(Int64(sample.duration)))
        }
        return end
    }

    /// Samples looked at from a subsegment's end for the last picture it shows: more than any reorder depth.
    private static let endSearchLimit = 256

    /// For a frame shown before the keyframe its plan decodes from (a leading picture of an open GOP), when that
    /// keyframe starts a subsegment whose predecessor is unread: the subsegments back to one that starts with a
    /// sync sample, whose samples the frame's references are among. Else nil.
    func subsegmentsBefore(_ plan: FramePlan) -> [Int]? {
        guard plan.targetPresentationTime < plan.keyframePresentationTime, hasUnreadFragments, let index = fragmentIndex,
              let first = plan.samples.first, let position = index.subsegment(holding: first.offset), position > 0 else {
            return nil
        }
        var start = position - 1
        while start > 0 && !index.subsegments[start].startsWithSAP { start -= 1 }
        return unread(Array(start..<position))
    }

    /// The subsegment after the one holding `sample`, when it is unread (for the keyframes after `sample`).
    func subsegment(after sample: Sample) -> Int? {
        guard hasUnreadFragments, let index = fragmentIndex, let position = index.subsegment(holding: sample.offset) else {
            return nil
        }
        return unread([position + 1].filter { index.subsegments.indices.contains($0) })?.first
    }

    /// Those of `subsegments` not read yet, nil when there are none.
    private func unread(_ subsegments: [Int]) -> [Int]? {
        let missing = subsegments.filter { !readSubsegments.contains($0) }
        return missing.isEmpty ? nil : missing
    }
}
