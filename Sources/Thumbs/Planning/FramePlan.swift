import MP4Box

/// The samples to fetch and decode for one picture, and the byte ranges that hold them.
public struct FramePlan: Sendable {
    /// The sample whose picture is the result.
    public var target: Sample
    /// The samples to decode, in decode order, starting at a sync sample and ending at or after the target.
    public var samples: [Sample]
    /// The requested time on the presentation timeline, in media timescale units.
    public var requestedTime: Int64
    /// The target's presentation time on the presentation timeline, in media timescale units.
    public var targetPresentationTime: Int64
    /// The presentation time of the sync sample the decode starts at.
    public var keyframePresentationTime: Int64
    /// The media timescale.
    public var timescale: UInt32

    /// The plan that decodes one sync sample, shown at `presentationTime`, for a request at `requestedTime`.
    package static func keyframe(_ sample: Sample, presentationTime: Int64, requestedTime: Int64,
                                 timescale: UInt32) -> FramePlan {
        FramePlan(target: sample, samples: [sample], requestedTime: requestedTime, targetPresentationTime: presentationTime,
                  keyframePresentationTime: presentationTime, timescale: timescale)
    }

    /// Whether the plan decodes one sync sample and nothing else.
    public var isKeyframeOnly: Bool { samples.count == 1 && samples[0].isSync }

    /// Total bytes of the samples.
    public var sampleBytes: UInt64 { samples.reduce(0) { $0 + UInt64($1.size) } }

    /// The byte ranges of the samples, with ranges closer than `maximumGap` bytes merged.
    public func byteRanges(maximumGap: UInt64 = 0) -> [Range<UInt64>] {
        SampleRanges.coalesce(samples.map(\.byteRange), maximumGap: maximumGap)
    }
}

/// Merging of sample byte ranges into fewer reads.
public enum SampleRanges {
    /// Sorts `ranges` and merges those that touch or are at most `maximumGap` bytes apart.
    public static func coalesce(_ ranges: [Range<UInt64>], maximumGap: UInt64) -> [Range<UInt64>] {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt64>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound + maximumGap {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
