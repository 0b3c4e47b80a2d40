import ByteSources
import MP4Box
import Thumbs

/// The cue times of a storyboard, the keyframe each cue shows, and the distinct keyframes to fetch.
///
/// Cue i starts at `i * interval` and ends at the next cue's start, the last at the duration (whole
/// milliseconds). Its picture is the sync sample whose presentation time is nearest its start (the earlier one
/// on a tie); when keyframes are sparser than cues, several cues share one keyframe, which is fetched and
/// decoded once. The distinct keyframes are kept in presentation order, so the keyframe of each cue never
/// moves backwards as the cues go on.
public struct StoryboardPlan: Sendable, StoryboardCuePlan {
    /// One distinct keyframe.
    public struct Keyframe: Sendable, Equatable {
        /// The sync sample.
        public var sample: Sample
        /// Its presentation time on the movie timeline, in media timescale units.
        public var presentationTime: Int64
    }

    /// Plans above this many cues are refused (a 24-hour video at one cue a second is 86 400).
    public static let maximumCueCount = 200_000

    /// The presentation duration, in whole milliseconds.
    public var duration: Duration
    /// The time between cue starts, in whole milliseconds.
    public var interval: Duration
    /// For each cue, the position of its keyframe in `keyframes`.
    public var cueKeyframes: [Int]
    /// The distinct keyframes, in presentation order.
    public var keyframes: [Keyframe]
    /// The track's media timescale.
    public var timescale: UInt32

    /// How many cues.
    public var cueCount: Int { cueKeyframes.count }

    /// How many distinct keyframes.
    public var keyframeCount: Int { keyframes.count }

    /// The start of cue `index`.
    public func cueStart(_ index: Int) -> Duration { interval * index }

    /// The end of cue `index` (exclusive).
    public func cueEnd(_ index: Int) -> Duration { min(cueStart(index) + interval, duration) }

    /// The sum of the distinct keyframes' sizes.
    public var keyframeBytes: UInt64 { keyframes.reduce(0) { $0 + UInt64($1.sample.size) } }

    /// Plans the storyboard of `track` with `options`' interval (or the default one for its duration).
    /// - Throws: `StoryboardError` `noSamples` for a track without samples, `noDuration` without a duration, `noKeyframe` when it has no
    ///   sync sample, `invalidOption` for an interval that gives more than `maximumCueCount` cues, `unorderedKeyframes`
    ///   when a keyframe would be shown again after another; `MP4Error` when the tables cannot place a sample.
    public init(track: MovieTrack, options: StoryboardOptions) throws {
        guard track.samples.count > 0 else { throw StoryboardError(.noSamples, "track \(track.id) has no samples") }
        guard track.samples.syncSampleCount > 0 else {
            throw StoryboardError(.noKeyframe, "track \(track.id) has no sync sample")
        }
        let seconds = track.durationSeconds
        guard seconds.isFinite, seconds > 0, seconds < 1e9 else {
            throw StoryboardError(.noDuration, "track \(track.id) has no usable duration (\(seconds) s)")
        }
        let duration = max(1, Int64((seconds * 1000).rounded()))
        let (interval, count) = try Self.cueSpacing(overMilliseconds: duration, options: options)
        self.duration = .milliseconds(duration)
        self.interval = .milliseconds(interval)
        timescale = track.timescale

        var chosen: [Sample] = []
        chosen.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let start = MediaTime(value: Int64(index) * interval, timescale: 1000).converted(to: track.timescale).value
            guard let keyframe = try track.syncSample(nearest: start) else {
                throw StoryboardError(.noKeyframe, "no sync sample near \(Int64(index) * interval) ms")
            }
            chosen.append(keyframe)
        }
        var distinct: [Int: Keyframe] = [:]
        for sample in chosen where distinct[sample.index] == nil {
            distinct[sample.index] = Keyframe(sample: sample, presentationTime: track.presentationTime(of: sample))
        }
        keyframes = distinct.values.sorted {
            ($0.presentationTime, $0.sample.index) < ($1.presentationTime, $1.sample.index)
        }
        var position: [Int: Int] = [:]
        for (ordinal, keyframe) in keyframes.enumerated() { position[keyframe.sample.index] = ordinal }
        cueKeyframes = chosen.map { position[$0.index] ?? 0 }
        // Each keyframe's cues must follow each other: the maker drops a tile once its run of cues is placed.
        var placed: Set<Int> = []
        for cue in cueKeyframes.indices.dropFirst() where cueKeyframes[cue] != cueKeyframes[cue - 1] {
            placed.insert(cueKeyframes[cue - 1])
            guard !placed.contains(cueKeyframes[cue]) else {
                let keyframes = self.keyframes
                let milliseconds = { (ordinal: Int) in
                    MediaTime(value: keyframes[ordinal].presentationTime, timescale: track.timescale).converted(to: 1000).value
                }
                throw StoryboardError(.unorderedKeyframes, "cue \(cue) (\(Int64(cue) * interval) ms) is nearest the keyframe at "
                                      + "\(milliseconds(cueKeyframes[cue])) ms again, after cue \(cue - 1)'s at "
                                      + "\(milliseconds(cueKeyframes[cue - 1])) ms: the sync samples' presentation times are "
                                      + "out of decode order")
            }
        }
    }

    /// The interval in milliseconds (`options`' own, or the default one for the length) and the number of cues
    /// over `length` milliseconds.
    /// - Throws: `StoryboardError` `invalidOption` for more than `maximumCueCount` cues.
    static func cueSpacing(overMilliseconds length: Int64,
                           options: StoryboardOptions) throws(StoryboardError) -> (interval: Int64, count: Int64) {
        let interval = max(1, (options.interval ?? StoryboardOptions.defaultInterval(forDuration: .milliseconds(length)))
            .nearestMilliseconds)
        let count = (length + interval - 1) / interval
        guard count <= maximumCueCount else {
            throw StoryboardError(.invalidOption, "an interval of \(interval) ms over \(length) ms gives \(count) cues, "
                                 + "more than \(maximumCueCount)")
        }
        return (interval, count)
    }

    /// Runs of consecutive keyframes (positions in `keyframes`) whose byte ranges follow each other with at most
    /// `maximumGap` bytes between them: each run is one read. With `joiningApart`, keyframes further apart join a
    /// run too: its ranges are then asked for together (`ByteSource.read(ranges:)`, one request over HTTP where the
    /// server answers several ranges). Runs hold at most `maximumCount` keyframes and `maximumBytes` bytes.
    public func fetchGroups(maximumGap: UInt64, joiningApart: Bool = false, maximumCount: Int = 16,
                            maximumBytes: UInt64 = 8 << 20) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = 0
        var bytes: UInt64 = 0
        for ordinal in keyframes.indices {
            let range = keyframes[ordinal].sample.byteRange
            if ordinal > start {
                let previous = keyframes[ordinal - 1].sample.byteRange
                let follows = range.lowerBound >= previous.upperBound
                    && (joiningApart || range.lowerBound - previous.upperBound <= maximumGap)
                if !follows || ordinal - start >= maximumCount || bytes + UInt64(range.count) > maximumBytes {
                    groups.append(start..<ordinal)
                    start = ordinal
                    bytes = 0
                }
            }
            bytes += UInt64(range.count)
        }
        if !keyframes.isEmpty { groups.append(start..<keyframes.count) }
        return groups
    }
}
