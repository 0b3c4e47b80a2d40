import FrameDecode
import MP4Box
import StreamManifests

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
    func bestKeyframe(of track: MovieTrack, in session: MovieSession, options: ThumbnailOptions,
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
        let limits = options.limits

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

    /// The picture `ThumbnailTime.best` gives of a stream: of its candidates (`StreamSeekMap.bestFrameCandidates()`),
    /// each keyframe read as `StreamSeekMap.keyframePicture(startingSegment:of:)` places it, at most one a core at
    /// once, and scored on its picture fitted to `FrameScore.analysisSize`; the best by `FrameScore.isBetter(than:)`,
    /// the earliest of equals. The chosen one is then made at the options' size (its segment read again). A candidate
    /// that cannot be read or decoded is left out (its candidate says why); when every one fails, the earliest one's
    /// error is thrown.
    /// - Throws: as `image(at:)`; `CancellationError`.
    func bestImage(of session: StreamSession, options: ThumbnailOptions) async throws -> Thumbnail {
        let seekMap = StreamSeekMap(session: session, options: options)
        let candidates = try await seekMap.bestFrameCandidates()
        let analysisOptions = options.bestFrameAnalysis
        let analysis = StreamSeekMap(session: session, options: analysisOptions)
        let concurrency = max(1, ProcessInfoCores.active)
        let results = try await CandidateEvaluation.results(of: candidates.indices, limit: concurrency) { position in
            let candidate = candidates[position]
            let picture = try await analysis.keyframePicture(startingSegment: candidate.segment, of: candidate.rendition)
            let made = try await self.image(of: picture, options: analysisOptions)
            return (FrameScore(image: made.image), made.actualMediaTime)
        }
        var best: (position: Int, score: FrameScore)?
        for (position, result) in results.enumerated() {
            guard case .success(let (score, _)) = result else { continue }
            if let kept = best, !Self.replaces(kept.score, at: kept.position, score, at: position) { continue }
            best = (position, score)
        }
        guard let best else {
            throw results.lazy.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { return error } else { return nil }
            }.first ?? ThumbnailError(.noSamples, "the stream has no segment to choose the best frame from",
                                      input: session.input.name, time: .best)
        }
        let chosen = candidates[best.position]
        var made = try await image(of: try await seekMap.keyframePicture(startingSegment: chosen.segment, of: chosen.rendition),
                                   options: options)
        made.requestedMediaTime = made.actualMediaTime
        made.candidates = candidates.indices.map { position in
            let start = MediaTime(value: candidates[position].segment.timeRange.lowerBound.whole(unitsPerSecond: 1000),
                                  timescale: 1000)
            switch results[position] {
            case .success(let (score, time)):
                return BestFrameCandidate(mediaTime: time, segment: candidates[position].segment.number, score: score,
                                          isChosen: position == best.position)
            case .failure(let error):
                return BestFrameCandidate(mediaTime: start, segment: candidates[position].segment.number, score: nil,
                                          failure: String(describing: error))
            case nil:
                return BestFrameCandidate(mediaTime: start, segment: candidates[position].segment.number, score: nil,
                                          failure: "not read")
            }
        }
        return made
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
