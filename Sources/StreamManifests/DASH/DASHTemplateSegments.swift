/// The segments of a DASH `SegmentTemplate` (ISO/IEC 23009-1 section 5.3.9.4), computed one at a time: from a
/// fixed `duration`, or from a `SegmentTimeline`'s runs of equal segments. Every product and sum is checked, and a
/// segment that would pass `Int64` ticks does not exist.
struct DASHTemplateSegments: Sendable, Hashable {
    /// A SegmentTimeline `S` element: `count` segments of `duration` ticks from `start`, the first being segment
    /// `firstIndex` of the list; `count` nil when it repeats until the period ends and the period has no end (live).
    struct Run: Sendable, Hashable {
        var start: Int64
        var duration: Int64
        var count: Int64?
        var firstIndex: Int64
    }

    enum Timing: Sendable, Hashable {
        case fixed(duration: Int64)
        case timeline([Run])
    }

    var media: DASHTemplate
    var baseURL: String
    var representationID: String
    var bandwidth: Int64?
    var initialization: StreamResource?
    var timescale: Int64
    var presentationTimeOffset: Int64
    var periodStart: Duration
    /// Where the period ends, when known (a static manifest's duration, the next period's start).
    var periodEnd: Duration?
    var startNumber: Int64
    var endNumber: Int64?
    var timing: Timing

    /// How many segments there are; nil when open-ended.
    var count: Int? {
        var byTime: Int64?
        switch timing {
        case .fixed(let duration):
            if let periodEnd, let ticks = (periodEnd - periodStart).ticks(timescale: timescale), duration > 0 {
                byTime = ticks <= 0 ? 0 : (ticks - 1) / duration + 1
            }
        case .timeline(let runs):
            if let lastRun = runs.last {
                byTime = lastRun.count.flatMap { lastRun.firstIndex.addingReportingOverflow($0).overflow ? nil : lastRun.firstIndex + $0 }
            } else {
                byTime = 0
            }
        }
        var byNumber: Int64?
        if let endNumber { byNumber = max(0, endNumber - startNumber + 1) }
        let bound = [byTime, byNumber].compactMap { $0 }.min()
        return bound.map { Int(clamping: $0) }
    }

    func segment(at index: Int) -> DASHSegmentPosition? {
        let index = Int64(index)
        if let count, index >= Int64(count) { return nil }
        let (number, numberOverflow) = startNumber.addingReportingOverflow(index)
        guard !numberOverflow else { return nil }
        switch timing {
        case .fixed(let duration):
            let (offset, overflow) = index.multipliedReportingOverflow(by: duration)
            guard !overflow, duration > 0 else { return nil }
            return position(number: number, time: offset, duration: duration, offsetFromPeriod: offset)
        case .timeline(let runs):
            // The last run that starts at or before the index.
            var low = 0
            var high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].firstIndex <= index { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let run = runs[low - 1]
            let step = index - run.firstIndex
            if let count = run.count, step >= count { return nil }
            let (advance, overflow) = step.multipliedReportingOverflow(by: run.duration)
            guard !overflow else { return nil }
            let (time, sumOverflow) = run.start.addingReportingOverflow(advance)
            let (offset, offsetOverflow) = time.subtractingReportingOverflow(presentationTimeOffset)
            guard !sumOverflow, !offsetOverflow else { return nil }
            return position(number: number, time: time, duration: run.duration, offsetFromPeriod: offset)
        }
    }

    /// The segment whose media starts at `time` ticks (`$Time$`), `offsetFromPeriod` ticks after the period starts.
    private func position(number: Int64, time: Int64, duration: Int64, offsetFromPeriod: Int64) -> DASHSegmentPosition? {
        let mediaTime: Int64
        if case .fixed = timing {
            let (sum, overflow) = time.addingReportingOverflow(presentationTimeOffset)
            guard !overflow else { return nil }
            mediaTime = sum
        } else {
            mediaTime = time
        }
        // Segments end 2^40 s (about 35,000 years) from the period's start, as times do everywhere here: further, a
        // start could not be found again by `index(containing:)`.
        let limit = Duration.seconds(DecimalSeconds.maximumSeconds)
        guard let startOffset = Duration.ticks(offsetFromPeriod, timescale: timescale),
              let length = Duration.ticks(duration, timescale: timescale),
              (startOffset < limit) && (Duration.zero - limit < startOffset) else { return nil }
        let start = periodStart + startOffset
        var end = start + length
        if let periodEnd { end = min(end, periodEnd) }
        return DASHSegmentPosition(number: number, time: mediaTime, timeRange: start ..< max(start, end),
                                   mediaStart: Duration.ticks(mediaTime, timescale: timescale))
    }

    /// The index of the segment playing at `time` (on the presentation's timeline), nil outside every segment.
    func index(containing time: Duration) -> Int? {
        // A timeline's first segment may start before the period (a presentationTimeOffset past its `t`).
        guard periodEnd.map({ time < $0 }) ?? true,
              let sincePeriod = (time - periodStart).ticks(timescale: timescale) else { return nil }
        let candidate: Int64
        switch timing {
        case .fixed(let duration):
            guard duration > 0 else { return nil }
            candidate = sincePeriod / duration
        case .timeline(let runs):
            let (mediaTime, overflow) = sincePeriod.addingReportingOverflow(presentationTimeOffset)
            guard !overflow else { return nil }
            var low = 0
            var high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].start <= mediaTime { low = middle + 1 } else { high = middle }
            }
            if low == 0 {
                // Before the first run (or a tick short of it: see below).
                candidate = -1
            } else {
                let run = runs[low - 1]
                guard run.duration > 0 else { return nil }
                var step = (mediaTime - run.start) / run.duration
                // Past the run's end (in a gap, or a tick short of the next run): its last segment.
                if let count = run.count, step >= count { step = count - 1 }
                candidate = run.firstIndex + step
            }
        }
        // A segment's start is its tick time to the attosecond below, which reads back as the tick before: the
        // segment after the candidate may be the one.
        for index in [candidate.addingReportingOverflow(1).partialValue, candidate] {
            guard index >= 0, let index = Int(exactly: index), count.map({ index < $0 }) ?? true,
                  let segment = segment(at: index), segment.timeRange.contains(time) else { continue }
            return index
        }
        return nil
    }
}

/// Where one computed segment sits: its `$Number$`, its `$Time$` and when it plays.
struct DASHSegmentPosition: Sendable, Hashable {
    var number: Int64
    var time: Int64
    var timeRange: Range<Duration>
    var mediaStart: Duration?
}
