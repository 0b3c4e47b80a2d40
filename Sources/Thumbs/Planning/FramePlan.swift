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

    /// Makes a plan (planners do).
    package init(target: Sample, samples: [Sample], requestedTime: Int64, targetPresentationTime: Int64,
                 keyframePresentationTime: Int64, timescale: UInt32) {
        self.target = target
        self.samples = samples
        self.requestedTime = requestedTime
        self.targetPresentationTime = targetPresentationTime
        self.keyframePresentationTime = keyframePresentationTime
        self.timescale = timescale
    }

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
