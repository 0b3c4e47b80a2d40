import FrameDecode
import MP4Box

/// Turns a time and a tolerance into the samples to decode.
///
/// With unlimited tolerance it picks the sync sample nearest the time: one
/// sample. With a bounded tolerance it takes that keyframe when it is inside the
/// window, else the frame on screen at the time, decoded from the sync sample
/// before it (the one before that when the frame is a leading picture of an
/// open GOP), skipping samples sdtp marks as disposable.
public enum FramePlanner {
    /// Plans the picture for presentation time `time` (media timescale units) of `track`.
    /// - Throws: `ThumbnailError` `noSamples` for a track without samples, `limitExceeded` when the decode would
    ///   pass `limits.maximumDecodedSamples`; `MP4Error` when the tables cannot place a sample.
    public static func plan(track: MovieTrack, time: Int64, selection: FrameSelection,
                            limits: ThumbnailLimits = ThumbnailLimits()) throws -> FramePlan {
        guard track.samples.count > 0 else {
            throw ThumbnailError(.noSamples, "track \(track.id) has no samples")
        }
        let window = selection.window(timescale: track.timescale)
        let clamped = try clamp(time, in: track)
        if let keyframe = try track.syncSample(nearest: clamped) {
            let shown = track.presentationTime(of: keyframe)
            let inWindow = Double(clamped.saturatingSubtract(shown)) <= window.before + 0.5
                && Double(shown.saturatingSubtract(clamped)) <= window.after + 0.5
            if inWindow {
                return .keyframe(keyframe, presentationTime: shown, requestedTime: time, timescale: track.timescale)
            }
        }
        guard let target = try track.sample(displayedAt: clamped) else {
            throw ThumbnailError(.noSamples, "track \(track.id) has no frame at \(time)")  // only when it has no samples
        }
        return try planDecode(of: target, in: track, requestedTime: time, limits: limits)
    }

    /// Plans the decode of `target` from the sync sample it depends on (from the first sample when none precedes it,
    /// or when it is a leading picture of the first sync sample and samples come before that).
    public static func planDecode(of target: Sample, in track: MovieTrack, requestedTime: Int64,
                                  limits: ThumbnailLimits = ThumbnailLimits()) throws -> FramePlan {
        let samples = track.samples
        let targetTime = track.presentationTime(of: target)
        guard var syncPosition = samples.syncIndex(atOrBefore: target.index) else {
            // No sync sample precedes the frame (an edit list that starts before the first one, or a stss that
            // leaves keyframes out): decode from the first sample, as players do.
            return try plan(from: samples.sample(at: 0), to: target, in: track, requestedTime: requestedTime, limits: limits)
        }
        var start = try samples.sample(at: samples.sampleIndex(ofSyncSample: syncPosition))
        // A picture shown before the sync sample that precedes it in decode order is a leading picture of
        // that (open-GOP) sync sample: it needs the previous GOP's references.
        let lowest = max(0, syncPosition - MovieTrack.maximumReorderSearch)
        while targetTime < track.presentationTime(of: start) && syncPosition > lowest && start.index != target.index {
            syncPosition -= 1
            start = try samples.sample(at: samples.sampleIndex(ofSyncSample: syncPosition))
        }
        // A leading picture of the first sync sample with samples before it (a file cut at a CRA, its RASL pictures
        // kept): its references are those samples, so decode from the first sample, as players and ffmpeg do.
        if syncPosition == 0, start.index > 0, targetTime < track.presentationTime(of: start), start.index != target.index {
            start = try samples.sample(at: 0)
        }
        return try plan(from: start, to: target, in: track, requestedTime: requestedTime, limits: limits)
    }

    /// What to show when `plan`'s decode failed at `failedSample` (its index): the frame nearest the requested time
    /// inside `selection`'s window among those decoded before it (each needs only samples before the failed one), as
    /// AVAssetImageGenerator gives the nearest frame it can within its tolerances. Nil when none is in the window:
    /// an exact request, the keyframe itself failing, or a window that holds only later frames.
    public static func fallback(for plan: FramePlan, failedAt failedSample: Int, in track: MovieTrack, selection: FrameSelection,
                                limits: ThumbnailLimits = ThumbnailLimits()) throws -> FramePlan? {
        let window = selection.window(timescale: track.timescale)
        let requested = Double(plan.requestedTime)
        var best: (sample: Sample, distance: Double)?
        for sample in plan.samples where sample.index < failedSample && sample.index != plan.target.index {
            let shown = Double(track.presentationTime(of: sample))
            guard shown >= requested - window.before - 0.5, shown <= requested + window.after + 0.5 else { continue }
            let distance = abs(shown - requested)
            if best.map({ distance < $0.distance || (distance == $0.distance && shown < Double(track.presentationTime(of: $0.sample))) }) ?? true {
                best = (sample, distance)
            }
        }
        guard let best else { return nil }
        return try planDecode(of: best.sample, in: track, requestedTime: plan.requestedTime, limits: limits)
    }

    /// The samples from `start` to `target` in decode order, without the disposable ones between them where a sample
    /// is one picture.
    static func plan(from start: Sample, to target: Sample, in track: MovieTrack, requestedTime: Int64,
                     limits: ThumbnailLimits) throws -> FramePlan {
        let samples = track.samples
        let targetTime = track.presentationTime(of: target)
        let span = target.index - start.index + 1
        guard span <= limits.maximumDecodedSamples else {
            throw ThumbnailError(.limitExceeded, "the frame needs \(span) samples decoded from the keyframe at sample "
                                 + "\(start.index), more than the limit of \(limits.maximumDecodedSamples)", sample: target.index)
        }
        let skipsDisposable = samplesAreSinglePictures(track)
        var plan: [Sample] = []
        for index in start.index...target.index {
            if skipsDisposable, index != target.index && index != start.index, samples.dependency(of: index)?.isDisposable == true {
                continue
            }
            plan.append(index == target.index ? target : try samples.sample(at: index))
        }
        return FramePlan(target: target, samples: plan, requestedTime: requestedTime, targetPresentationTime: targetTime,
                         keyframePresentationTime: track.presentationTime(of: start), timescale: track.timescale)
    }

    /// Whether sdtp's disposable samples of `track` may be left out: only where a sample is one picture (see
    /// `CodecConfiguration.Codec.samplesAreSinglePictures`); never for AV1 or a codec not decoded here.
    static func samplesAreSinglePictures(_ track: MovieTrack) -> Bool {
        guard let format = track.codingFormat, let codec = CodecConfiguration.Codec(codingFormat: format) else { return false }
        return codec.samplesAreSinglePictures
    }

    /// Times past the last frame clamp to it; times before the first frame clamp to it.
    static func clamp(_ time: Int64, in track: MovieTrack) throws -> Int64 {
        guard let first = try track.firstPresentedSample() else { return time }
        let firstTime = track.presentationTime(of: first)
        if time < firstTime { return firstTime }
        let duration = MediaTime(seconds: track.durationSeconds, timescale: track.timescale).value
        if time >= duration, let last = try track.sample(displayedAt: Int64.max / 4) {
            return min(time, track.presentationTime(of: last))
        }
        return time
    }
}
