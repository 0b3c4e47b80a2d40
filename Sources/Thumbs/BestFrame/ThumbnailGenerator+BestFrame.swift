import FrameDecode
import MP4Box

extension ThumbnailGenerator {
    /// The candidate keyframe `ThumbnailTime.best` shows, found by `bestKeyframe(of:options:timings:)`: its plan, its
    /// sample's bytes (for the decode that makes the thumbnail), every candidate, and how many were decoded.
    struct BestKeyframe {
        var plan: FramePlan
        var bytes: [Int: [UInt8]]
        var candidates: [BestFrameCandidate]
        var decoded: Int
    }

    /// Chooses the keyframe `ThumbnailTime.best` shows: the keyframes of `BestFramePlan` fetched in groups (each group
    /// one `ByteSource.read(ranges:)`, at most `limits.batchBytes` of them held at once), decoded side by side (one
    /// decoder a core, each decode within the session's shared bounds), each scored on its picture rendered to fit
    /// `FrameScore.analysisSize` and dropped; the best by `FrameScore.isBetter(than:)`, the earliest of equals,
    /// whatever order the decodes finish in. Only the best one's sample bytes are kept, no picture: the caller decodes
    /// it again for the thumbnail. A keyframe the decoder refuses is left out (its candidate says why); when every one
    /// is refused, the earliest one's error is thrown.
    /// - Throws: `ThumbnailError` `noSamples`, `limitExceeded`; the source's errors; `DecodeError` when no keyframe
    ///   decodes; `CancellationError`.
    func bestKeyframe(of track: MovieTrack, options: ThumbnailOptions,
                      timings: inout Thumbnail.Timings) async throws -> BestKeyframe {
        let candidatePlan = try BestFramePlan(track: track, count: options.bestFrameCandidateCount)
        let keyframes = candidatePlan.keyframes
        let plans = keyframes.map {
            FramePlan.keyframe($0.sample, presentationTime: $0.presentationTime, requestedTime: $0.presentationTime,
                               timescale: track.timescale)
        }
        for plan in plans { try DecodeSession.checkSampleSizes(of: plan, limits: options.limits) }
        let analysis = options.bestFrameAnalysis
        let concurrency = max(1, ProcessInfoCores.active)
        let limiters = [AsyncLimiter(limit: concurrency)] + (session.workLimits.map { [$0.decodes] } ?? [])
        let (session, limits) = (self.session, options.limits)

        var scores = [FrameScore?](repeating: nil, count: keyframes.count)
        var failures = [(any Error)?](repeating: nil, count: keyframes.count)
        var best: (position: Int, bytes: [UInt8])?
        for group in candidatePlan.fetchGroups(maximumBytes: limits.batchBytes) {
            try Task.checkCancellation()
            let fetchWatch = Stopwatch()
            let bytes = try await session.bytes(of: group.map { keyframes[$0].sample }, keeping: false)
            timings.fetch += fetchWatch.elapsed
            let decodeWatch = Stopwatch()
            let results = try await CandidateEvaluation.results(of: group, limit: concurrency) { position in
                try await AsyncLimiter.run(within: limiters) {
                    try Task.checkCancellation()
                    let plan = plans[position]
                    let lease = try session.decoders.take(for: plan, of: track, threading: .single, limits: limits.decoderLimits)
                    defer { session.decoders.giveBack(lease) }
                    let frame = try DecodeSession.decode(plan, bytes: bytes, with: lease.decoder, limits: limits)
                    let picture = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame,
                                                                                    thumbnailOptions: analysis))
                    return FrameScore(image: picture)
                }
            }
            // In position order, so that of equal scores the earlier one is kept.
            for (position, result) in zip(group, results) {
                switch result {
                case .success(let score):
                    scores[position] = score
                    if let current = best, let kept = scores[current.position],
                       !Self.replaces(kept, at: current.position, score, at: position) { break }
                    best = (position, bytes[keyframes[position].sample.index] ?? [])
                case .failure(let error):
                    failures[position] = error
                case nil:
                    break
                }
            }
            timings.decode += decodeWatch.elapsed
        }
        guard let best else {
            throw failures.lazy.compactMap { $0 }.first
                ?? ThumbnailError(.noFrame, "no keyframe of track \(track.id) gave a picture")
        }
        let candidates = keyframes.indices.map { position in
            BestFrameCandidate(mediaTime: MediaTime(value: keyframes[position].presentationTime, timescale: track.timescale),
                               sample: keyframes[position].sample.index, score: scores[position],
                               failure: failures[position].map { String(describing: $0) },
                               isChosen: position == best.position)
        }
        let plan = plans[best.position]
        return BestKeyframe(plan: plan, bytes: [plan.target.index: best.bytes], candidates: candidates,
                            decoded: scores.lazy.compactMap { $0 }.count)
    }

    /// Whether the candidate at `position` scoring `score` takes the place of the one kept so far, at `keptPosition`
    /// scoring `kept`: it is better, or as good and earlier. The pick is then the same whatever order the candidates
    /// come in.
    static func replaces(_ kept: FrameScore, at keptPosition: Int, _ score: FrameScore, at position: Int) -> Bool {
        score.isBetter(than: kept) || (!kept.isBetter(than: score) && position < keptPosition)
    }
}

extension ThumbnailOptions {
    /// How a best-frame candidate is rendered to be scored: fitted to `FrameScore.analysisSize` (never scaled up),
    /// tone-mapped, as stored (the score does not depend on the turn), with no encoding.
    var bestFrameAnalysis: ThumbnailOptions {
        var analysis = self
        (analysis.maximumSize, analysis.fitMode, analysis.allowsUpscaling) = (FrameScore.analysisSize, .fit, false)
        (analysis.keepsHDR, analysis.appliesPreferredTrackTransform) = (false, false)
        (analysis.format, analysis.makesPlaceholder) = (nil, false)
        return analysis
    }
}
