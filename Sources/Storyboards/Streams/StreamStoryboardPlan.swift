import StreamManifests
import Thumbs

/// The cue times of a stream's storyboard, the keyframe each cue shows, and the distinct keyframes to fetch.
///
/// A stream's keyframes known without reading media are the starts of its segments (each starts with one) or,
/// where an HLS master names an I-frame playlist, every keyframe it lists. Cue i starts at `start + i * interval`
/// (`start`: where the first segment starts, 0 for a stream on demand) and ends at the next cue's start, the last
/// at the end of the stream (whole milliseconds). Its picture is the known keyframe nearest its start (the earlier
/// one on a tie) in the rendition of the period playing then; several cues that show one keyframe share its fetch
/// and decode. Segments are found by time, never listed, so a template of billions of segments costs the cues alone.
/// In a segment whose keyframes a search finds (a transport stream file, a Matroska file without Cues: one segment,
/// the whole file), each cue's picture is the keyframe nearest its start, searched for (`near`).
public struct StreamStoryboardPlan: Sendable, StoryboardCuePlan {
    /// One distinct keyframe: the segment it starts (or, in an I-frame playlist, is).
    public struct Keyframe: Sendable, Equatable {
        /// The position of its period in the presentation.
        public var period: Int
        /// Its position among its rendition's segments.
        public var index: Int
        /// The segment.
        public var segment: StreamSegment
        /// The rendition it belongs to, with its segments.
        public var rendition: StreamRendition
        /// In a segment whose keyframes a search finds, the time whose nearest keyframe it is; nil: the segment's
        /// first.
        public var near: Duration?
    }

    /// Where the first cue starts: the first segment's start, in whole milliseconds.
    public var start: Duration
    /// The end of the last cue: the stream's end, in whole milliseconds.
    public var end: Duration
    /// The time between cue starts, in whole milliseconds.
    public var interval: Duration
    /// For each cue, the position of its keyframe in `keyframes`.
    public var cueKeyframes: [Int]
    /// The distinct keyframes, in order of time.
    public var keyframes: [Keyframe]

    /// How many cues.
    public var cueCount: Int { cueKeyframes.count }

    /// How many distinct keyframes.
    public var keyframeCount: Int { keyframes.count }

    /// The start of cue `index`.
    public func cueStart(_ index: Int) -> Duration { start + interval * index }

    /// The end of cue `index` (exclusive).
    public func cueEnd(_ index: Int) -> Duration { min(cueStart(index) + interval, end) }

    /// Plans the storyboard of `presentation`, whose periods' video renditions (with their segments, one per period,
    /// nil for a period without one) are `renditions`, with `options`' interval (or the default one for the length).
    /// `liveEdge`: where the newest whole segment of a live stream without an end ends (its segments are made as the
    /// clock goes); the storyboard then covers its time-shift window up to there (from its first segment when the
    /// manifest gives no `timeShiftBufferDepth`).
    /// - Throws: `StoryboardError` `noSamples` when no period has a rendition with segments, `noDuration` when the end
    ///   is not known (a live template without an end or a live edge), `invalidOption` for more than
    ///   `StoryboardPlan.maximumCueCount` cues, `noKeyframe` when a cue finds only gaps near it.
    public init(presentation: StreamPresentation, renditions: [StreamRendition?], options: StoryboardOptions,
                liveEdge: Duration? = nil) throws {
        let usable = renditions.indices.filter { renditions[$0]?.segments?.first != nil }
        guard let firstPeriod = usable.first, let lastPeriod = usable.last,
              let firstSegment = renditions[firstPeriod]?.segments?.first else {
            throw StoryboardError(.noSamples, "the stream has no video rendition with segments")
        }
        var startMilliseconds = firstSegment.timeRange.lowerBound.nearestMilliseconds
        let listedEnd = presentation.duration ?? renditions[lastPeriod]?.segments?.timeRange?.upperBound
        guard let streamEnd = listedEnd ?? liveEdge else {
            throw StoryboardError(.noDuration, "the stream's end is not known (a live stream whose segments have no end)")
        }
        if listedEnd == nil, let depth = presentation.timeShiftBufferDepth {
            startMilliseconds = max(startMilliseconds, (streamEnd - depth).nearestMilliseconds)
        }
        let endMilliseconds = streamEnd.nearestMilliseconds
        guard endMilliseconds > startMilliseconds, endMilliseconds - startMilliseconds < 1_000_000_000_000 else {
            throw StoryboardError(.noDuration, "the stream has no usable length (from \(startMilliseconds) ms to \(endMilliseconds) ms)")
        }
        let (interval, count) = try StoryboardPlan.cueSpacing(overMilliseconds: endMilliseconds - startMilliseconds,
                                                              options: options)
        start = .milliseconds(startMilliseconds)
        end = .milliseconds(endMilliseconds)
        self.interval = .milliseconds(interval)

        var keyframes: [Keyframe] = []
        var cueKeyframes: [Int] = []
        cueKeyframes.reserveCapacity(Int(count))
        for cue in 0..<Int(count) {
            let time = Duration.milliseconds(startMilliseconds + Int64(cue) * interval)
            // The period playing at the time, of those with a rendition.
            let period = usable.last { presentation.periods[$0].start <= time } ?? firstPeriod
            guard let rendition = renditions[period], let segments = rendition.segments,
                  let index = segments.index(startingNearest: time), let segment = segments.segment(at: index) else {
                throw StoryboardError(.noKeyframe, "no segment that is not a gap near \(time.nearestMilliseconds) ms")
            }
            if segment.keyframesFoundBySearch {
                keyframes.append(Keyframe(period: period, index: index, segment: segment, rendition: rendition, near: time))
            } else if let last = keyframes.last, last.period == period, last.index == index {
                cueKeyframes.append(keyframes.count - 1)
                continue
            } else {
                keyframes.append(Keyframe(period: period, index: index, segment: segment, rendition: rendition))
            }
            cueKeyframes.append(keyframes.count - 1)
        }
        self.keyframes = keyframes
        self.cueKeyframes = cueKeyframes
    }

    /// Runs of consecutive keyframes from position `first` on, each of which is an I-frame playlist's byte range of
    /// the same resource as the one before, after it (its keyframes in one file): each run's ranges are read together
    /// (`StreamSession.prefetch(_:)`: one request where the origin answers several ranges). Other keyframes (a
    /// segment's start, whose reading takes its head only) are runs of one. Runs hold at most `maximumCount`
    /// keyframes and `maximumBytes` bytes.
    public func fetchGroups(from first: Int, maximumCount: Int = 16, maximumBytes: UInt64 = 8 << 20) -> [Range<Int>] {
        guard first < keyframes.count else { return [] }
        func size(_ keyframe: Keyframe) -> UInt64 {
            keyframe.segment.resource.byteRange.map { $0.upperBound - $0.lowerBound } ?? 0
        }
        var groups: [Range<Int>] = []
        var start = first
        var bytes = size(keyframes[first])
        for ordinal in keyframes.indices.dropFirst(first + 1) {
            let previous = keyframes[ordinal - 1], this = keyframes[ordinal]
            let (before, range) = (previous.segment.resource.byteRange, this.segment.resource.byteRange)
            let joins = this.rendition.isIFrameOnly && previous.rendition.isIFrameOnly
                && this.segment.resource.url == previous.segment.resource.url
                && before != nil && range != nil && (range?.lowerBound ?? 0) >= (before?.upperBound ?? .max)
                && ordinal - start < maximumCount && bytes <= maximumBytes - min(maximumBytes, size(this))
            if joins {
                bytes += size(this)
            } else {
                groups.append(start ..< ordinal)
                start = ordinal
                bytes = size(this)
            }
        }
        groups.append(start ..< keyframes.count)
        return groups
    }
}
