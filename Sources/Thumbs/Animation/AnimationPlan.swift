import ByteSources
import MP4Box

/// Which movie frame each frame of an animated preview shows, and the decode runs that give them.
///
/// Frame `k` is for `start + k / fps`. It shows the keyframe within half a frame's time of that time when there is
/// one (`FramePlanner` with that tolerance), else the frame on screen then. Consecutive frame times that show the
/// same movie frame become one longer frame. The decodes of frames that share a keyframe are one run: the union of
/// their plans, in decode order, decoded once.
struct AnimationPlan {
    struct Frame {
        var startMilliseconds: Int
        var sample: Sample
        var presentationTime: Int64
    }

    /// The preview's frames, in time order, each a different movie frame from the one before.
    let frames: [Frame]
    /// The decodes, one per keyframe, in decode order; each ends at its last wanted sample in decode order.
    let runs: [FramePlan]

    /// A time the preview shows a frame for: where that frame starts in the preview, and the time on the track.
    struct Slot {
        var startMilliseconds: Int
        var trackSeconds: Double
    }

    /// The plan of a movie's preview for `track`, with `options` already validated (`AnimatedPreviewMaker` does), and
    /// where the preview ends (the end of the span, within the movie).
    /// - Throws: `ThumbnailError` `invalidOption` when the start is not before the end of the movie, `noSamples`,
    ///   `limitExceeded` from `FramePlanner`; `MP4Error` when the tables cannot place a sample.
    static func movie(track: MovieTrack, options: AnimatedPreviewOptions) throws -> (plan: AnimationPlan, durationMilliseconds: Int) {
        let duration = track.durationSeconds
        let start = options.start.seconds
        guard start < duration else {
            throw ThumbnailError(.invalidOption, "the start (\(start) s) is not before the end of the movie (\(duration) s)")
        }
        let end = min(options.end?.seconds ?? start + 5, duration, start + AnimatedPreviewOptions.maximumDuration.seconds)
        let fps = options.framesPerSecond
        let count = max(1, Int(((end - start) * fps).rounded(.up)))
        let slots = (0..<count).map { Slot(startMilliseconds: milliseconds(ofFrame: $0, framesPerSecond: fps),
                                           trackSeconds: start + Double($0) / fps) }
        let plan = try AnimationPlan(track: track, slots: slots, framesPerSecond: fps, limits: options.limits)
        return (plan, Int(((end - start) * 1000).rounded()))
    }

    /// The plan of `slots` (in time order) of `track`, at `framesPerSecond` (a movie's preview plans all its slots
    /// in one; a stream's plans each segment's slots in that segment's movie).
    /// - Throws: `ThumbnailError` `noSamples`, `limitExceeded` from `FramePlanner`; `MP4Error` when the tables
    ///   cannot place a sample.
    init(track: MovieTrack, slots: [Slot], framesPerSecond fps: Double, limits: ThumbnailLimits) throws {
        let halfFrame = 0.5 / fps
        var frames: [Frame] = []
        var plans: [Int: FramePlan] = [:]
        for slot in slots {
            let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: slot.trackSeconds),
                                             selection: FrameSelection(toleranceBefore: .seconds(halfFrame), toleranceAfter: .seconds(halfFrame)),
                                             limits: limits)
            if let last = frames.last, last.sample.index == plan.target.index { continue }
            frames.append(Frame(startMilliseconds: slot.startMilliseconds, sample: plan.target,
                                presentationTime: plan.targetPresentationTime))
            plans[plan.target.index] = plan
        }
        self.frames = frames
        runs = Self.runs(merging: Array(plans.values))
    }

    /// Where frame `index` of a preview at `framesPerSecond` starts, in whole milliseconds (as WebP times frames).
    static func milliseconds(ofFrame index: Int, framesPerSecond: Double) -> Int {
        Int((Double(index) / framesPerSecond * 1000).rounded())
    }

    /// One plan per first sample: the union of the samples of the plans that start there, sorted, ending at the
    /// target latest in decode order.
    private static func runs(merging plans: [FramePlan]) -> [FramePlan] {
        let byStart = Dictionary(grouping: plans) { $0.samples.first?.index ?? $0.target.index }
        return byStart.keys.sorted().compactMap { start in
            guard let group = byStart[start], var run = group.max(by: { $0.target.index < $1.target.index }) else { return nil }
            var samples: [Int: Sample] = [:]
            for plan in group {
                for sample in plan.samples { samples[sample.index] = sample }
            }
            run.samples = samples.keys.sorted().compactMap { samples[$0] }
            return run
        }
    }
}
