/// The segments of one rendition, in order: listed one by one (an HLS playlist, a DASH `SegmentList`), computed from
/// a template (DASH `SegmentTemplate`, with or without a `SegmentTimeline`), or one resource whose segment index says
/// the rest (DASH `SegmentBase`). A template is never expanded into a list: a segment is computed when asked for, so
/// a manifest that claims billions of segments costs nothing until one is used.
public struct StreamSegments: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case listed([StreamSegment])
        case template(DASHTemplateSegments)
    }

    let storage: Storage

    /// Segments listed one by one, in order of time.
    public init(_ segments: [StreamSegment]) {
        storage = .listed(segments)
    }

    init(template: DASHTemplateSegments) {
        storage = .template(template)
    }

    /// How many segments there are; nil when the list is open-ended (a live template without an end).
    public var count: Int? {
        switch storage {
        case .listed(let segments): segments.count
        case .template(let template): template.count
        }
    }

    /// Whether there is no segment at all.
    public var isEmpty: Bool { count == 0 }

    /// The segment at `index` (0 is the first), nil past the end.
    public func segment(at index: Int) -> StreamSegment? {
        guard index >= 0 else { return nil }
        switch storage {
        case .listed(let segments): return index < segments.count ? segments[index] : nil
        case .template(let template): return template.streamSegment(at: index)
        }
    }

    /// The index of the segment playing at `time`: the last segment that starts at or before it, if it has not
    /// ended by then; nil before the first segment, in a gap between segments, or after the last.
    public func index(containing time: Duration) -> Int? {
        switch storage {
        case .listed(let segments):
            // The first segment that starts after `time`, then the one before it.
            var low = 0
            var high = segments.count
            while low < high {
                let middle = (low + high) / 2
                if segments[middle].timeRange.lowerBound <= time { low = middle + 1 } else { high = middle }
            }
            guard low > 0, segments[low - 1].timeRange.contains(time) else { return nil }
            return low - 1
        case .template(let template):
            return template.index(containing: time)
        }
    }

    /// The index of the last segment that starts at or before `time` (playing then, or ended before it: in a gap
    /// between segments, or after the last); nil before the first segment, or when the segments have no end.
    public func index(startingAtOrBefore time: Duration) -> Int? {
        guard let count, count > 0 else { return nil }
        // The first segment that starts after `time`, then the one before it.
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if let segment = segment(at: middle), segment.timeRange.lowerBound <= time { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The segment playing at `time` (see `index(containing:)`).
    public func segment(containing time: Duration) -> StreamSegment? {
        index(containing: time).flatMap { segment(at: $0) }
    }

    /// The first segment, if any.
    public var first: StreamSegment? { segment(at: 0) }

    /// The last segment, if the list has an end.
    public var last: StreamSegment? {
        guard let count, count > 0 else { return nil }
        return segment(at: count - 1)
    }

    /// From the start of the first segment to the end of the last; nil when empty or open-ended.
    public var timeRange: Range<Duration>? {
        guard let first, let last else { return nil }
        return first.timeRange.lowerBound ..< max(first.timeRange.lowerBound, last.timeRange.upperBound)
    }
}
