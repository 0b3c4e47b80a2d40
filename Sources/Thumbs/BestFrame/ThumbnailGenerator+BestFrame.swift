import BoundedTasks
import FrameDecode
import MP4Box
import StreamManifests

extension ThumbnailGenerator {
    /// The candidate keyframe `ThumbnailTime.best` shows, found by `chooseBest(among:groups:groupsAtOnce:reading:
    /// timescale:)`: where it is among the candidates, its picture as scored (with a movie's sample bytes, for the
    /// decode that makes the thumbnail), every candidate, how many were decoded, and the time reads and decodes took.
    struct BestKeyframe {
        var position: Int
        var picture: KeyframePictures.Picture
        var candidates: [BestFrameCandidate]
        var decoded: Int
        var fetchTime: Duration
        var decodeTime: Duration
    }

    /// Chooses the keyframe `ThumbnailTime.best` shows among `keyframes`, of a movie or a stream alike: the keyframes
    /// read and decoded by `reading` (`KeyframePictures`, rendered to fit `FrameScore.analysisSize`) a group of
    /// `groups` at a time, at most `groupsAtOnce` groups at once, each scored and dropped; the best by
    /// `FrameScore.isBetter(than:)`, the earliest of equals, whatever order the groups finish in. Only the best one's
    /// picture is kept (and a movie's sample bytes). A keyframe that cannot be decoded (of a stream, read) is left out
    /// (its candidate says why); when every one is, the earliest one's error is thrown. A movie's group whose read
    /// fails ends the choice with that error.
    /// - Throws: what `KeyframePictures.pictures(of:)` throws; the earliest keyframe's error when none gave a picture;
    ///   `CancellationError`.
    func chooseBest(among keyframes: [MediaKeyframe], groups: [Range<Int>], groupsAtOnce: Int, reading: KeyframePictures,
                    timescale: UInt32) async throws -> BestKeyframe {
        var scores = [FrameScore?](repeating: nil, count: keyframes.count)
        var times = keyframes.map { $0.nominalTime(timescale: timescale) }
        var failures = [(any Error)?](repeating: nil, count: keyframes.count)
        var best: (position: Int, picture: KeyframePictures.Picture)?
        var (fetchTime, decodeTime) = (Duration.zero, Duration.zero)
        try await BoundedTaskGroup.run(groups, atMost: groupsAtOnce, { group in
            (group, try await reading.pictures(of: Array(keyframes[group])))
        }) { made in
            let (group, pictures) = made
            fetchTime += pictures.fetchTime
            decodeTime += pictures.decodeTime
            for (position, result) in zip(group, pictures.pictures) {
                switch result {
                case .success(let picture):
                    let score = FrameScore(image: picture.image)
                    (scores[position], times[position]) = (score, picture.time)
                    if let kept = best, let keptScore = scores[kept.position],
                       !Self.replaces(keptScore, at: kept.position, score, at: position) { continue }
                    best = (position, picture)
                case .failure(let error):
                    failures[position] = error
                }
            }
        }
        guard let best else {
            throw failures.lazy.compactMap { $0 }.first
                ?? ThumbnailError(.noFrame, "no candidate keyframe gave a picture", time: .best)
        }
        let candidates = keyframes.indices.map { position in
            var candidate = BestFrameCandidate(mediaTime: times[position], score: scores[position],
                                               failure: failures[position].map { String(describing: $0) },
                                               isChosen: position == best.position)
            switch keyframes[position] {
            case .sample(let sample, _): candidate.sample = sample.index
            case .segment(let segment, _), .searched(let segment, _, _): candidate.segment = segment.number
            }
            return candidate
        }
        return BestKeyframe(position: best.position, picture: best.picture, candidates: candidates,
                            decoded: scores.lazy.compactMap { $0 }.count, fetchTime: fetchTime, decodeTime: decodeTime)
    }

    /// The keyframe `ThumbnailTime.best` shows of a movie: among `BestFramePlan`'s candidates, read in runs of at most
    /// `limits.batchBytes` one run at a time (each run one `ByteSource.read(ranges:)`), decoded side by side, one
    /// decoder a core (`chooseBest(among:groups:groupsAtOnce:reading:timescale:)`). Its plan and sample bytes are
    /// for the decode that makes the thumbnail.
    /// - Throws: `ThumbnailError` `noSamples`, `limitExceeded`; the source's errors; `DecodeError` when no keyframe
    ///   decodes; `CancellationError`.
    func bestKeyframe(of track: MovieTrack, in session: MovieSession, options: ThumbnailOptions,
                      timings: inout Thumbnail.Timings) async throws -> (plan: FramePlan, bytes: [Int: [UInt8]], chosen: BestKeyframe) {
        let candidatePlan = try BestFramePlan(track: track, count: options.bestFrameCandidateCount)
        let keyframes = candidatePlan.keyframes
        let reading = KeyframePictures(media: .movie(session), track: track, options: options.bestFrameAnalysis,
                                       decodes: max(1, ProcessInfoCores.active))
        let chosen = try await chooseBest(
            among: keyframes.map { .sample($0.sample, presentationTime: $0.presentationTime) },
            groups: candidatePlan.fetchGroups(maximumBytes: options.limits.batchBytes), groupsAtOnce: 1, reading: reading,
            timescale: track.timescale)
        timings.fetch += chosen.fetchTime
        timings.decode += chosen.decodeTime
        let keyframe = keyframes[chosen.position]
        let plan = FramePlan.keyframe(keyframe.sample, presentationTime: keyframe.presentationTime,
                                      requestedTime: keyframe.presentationTime, timescale: track.timescale)
        return (plan, [keyframe.sample.index: chosen.picture.sampleBytes ?? []], chosen)
    }

    /// The picture `ThumbnailTime.best` gives of a stream: among its candidates (`StreamSeekMap.bestFrameCandidates()`),
    /// each keyframe read alone as `StreamSeekMap.keyframePicture(startingSegment:of:)` places it, one a core at once
    /// (`chooseBest(among:groups:groupsAtOnce:reading:timescale:)`). The chosen one is then made at the options' size
    /// (its segment read again).
    /// - Throws: as `image(at:)`; `CancellationError`.
    func bestImage(of session: StreamSession, options: ThumbnailOptions) async throws -> Thumbnail {
        let seekMap = StreamSeekMap(session: session, options: options)
        let keyframes = try await seekMap.bestFrameCandidates().map { MediaKeyframe.segment($0.segment, of: $0.rendition) }
        let reading = KeyframePictures(media: .stream(session), track: nil, options: options.bestFrameAnalysis, decodes: 1)
        let chosen = try await chooseBest(among: keyframes, groups: keyframes.indices.map { $0..<$0 + 1 },
                                          groupsAtOnce: max(1, ProcessInfoCores.active), reading: reading, timescale: 1000)
        guard case .segment(let segment, let rendition) = keyframes[chosen.position] else {
            throw ThumbnailError(.invalidOption, "a movie's keyframe chosen of a stream", input: session.input.name, time: .best)
        }
        var made = try await image(of: try await seekMap.keyframePicture(startingSegment: segment, of: rendition), options: options)
        made.requestedMediaTime = made.actualMediaTime
        made.candidates = chosen.candidates
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
