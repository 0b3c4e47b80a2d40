import ByteSources
import MP4Box
import StreamManifests

extension StreamThumbnailGenerator {
    /// The picture `ThumbnailTime.best` gives of a stream: of the segments playing at `bestFrameCandidateCount` times
    /// spread over the stream without its first and last 5 % (its duration, or a live stream's segments now), each
    /// once, the keyframe that starts it (of an I-frame playlist, where the period has one: its keyframe there), read
    /// as `keyframeImage(startingSegment:of:)` reads it, at most one a core at once, and scored on its picture fitted
    /// to `FrameScore.analysisSize`; the best by `FrameScore.isBetter(than:)`, the earliest of equals. The chosen one
    /// is then made at the options' size (its segment read again). A candidate that cannot be read or decoded is left
    /// out (its candidate says why); when every one fails, the earliest one's error is thrown.
    /// - Throws: as `image(at:)`; `CancellationError`.
    func bestImage() async throws -> StreamThumbnail {
        let candidates = try await bestFrameCandidates()
        let analysis = StreamThumbnailGenerator(session: session, options: options.bestFrameAnalysis)
        let concurrency = max(1, ProcessInfoCores.active)
        let results = try await CandidateEvaluation.results(of: candidates.indices, limit: concurrency) { position in
            let candidate = candidates[position]
            let made = try await analysis.keyframeImage(startingSegment: candidate.segment, of: candidate.rendition)
            return (FrameScore(image: made.thumbnail.image), made.thumbnail.actualMediaTime)
        }
        var best: (position: Int, score: FrameScore)?
        for (position, result) in results.enumerated() {
            guard case .success(let (score, _)) = result else { continue }
            if let kept = best, !ThumbnailGenerator.replaces(kept.score, at: kept.position, score, at: position) { continue }
            best = (position, score)
        }
        guard let best else {
            throw results.lazy.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { return error } else { return nil }
            }.first ?? ThumbnailError(.noSamples, "the stream has no segment to choose the best frame from",
                                      input: session.input.name, time: .best)
        }
        let chosen = candidates[best.position]
        var made = try await keyframeImage(startingSegment: chosen.segment, of: chosen.rendition)
        made.thumbnail.requestedMediaTime = made.thumbnail.actualMediaTime
        made.thumbnail.candidates = candidates.indices.map { position in
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

    /// The segments `bestImage()` chooses among, in time order, each once, with the rendition each is read from.
    private func bestFrameCandidates() async throws -> [(rendition: StreamRendition, segment: StreamSegment)] {
        let presentation = try await session.loadPresentation()
        var renditions: [Int: (StreamRendition, StreamSegments)] = [:]  // by period
        func segments(ofPeriod index: Int) async throws -> (StreamRendition, StreamSegments) {
            if let known = renditions[index] { return known }
            let period = presentation.periods[index]
            var found: (StreamRendition, StreamSegments)
            if let listed = rendition(in: period, iFrameOnly: true),
               case let withSegments = try await session.withSegments(listed), let keyframes = withSegments.segments,
               keyframes.first != nil {
                found = (withSegments, keyframes)
            } else {
                found = try await chosenRendition(in: period, time: .best)
            }
            renditions[index] = found
            return found
        }
        guard !presentation.periods.isEmpty else {
            throw ThumbnailError(.noVideo, "the stream has no period", input: session.input.name, time: .best)
        }
        let span: Range<Duration>
        if let duration = presentation.duration, duration > .zero {
            span = .zero..<duration
        } else {
            let (_, first) = try await segments(ofPeriod: 0)
            span = first.timeRange ?? Duration.zero..<Duration.zero
        }
        let count = min(max(1, options.bestFrameCandidateCount), BestFramePlan.maximumCount)
        var chosen: [(rendition: StreamRendition, segment: StreamSegment)] = []
        var seen: Set<String> = []
        for part in 0..<count {
            let fraction = BestFramePlan.skippedEnds + (1 - 2 * BestFramePlan.skippedEnds) * (Double(part) + 0.5) / Double(count)
            let time = span.lowerBound + (span.upperBound - span.lowerBound) * fraction
            let periodIndex = presentation.periods.lastIndex { $0.start <= time } ?? 0
            let (rendition, segments) = try await segments(ofPeriod: periodIndex)
            guard var index = Self.index(playingAt: time, in: segments) else { continue }
            while index > 0, segments.segment(at: index)?.isGap == true { index -= 1 }
            guard let segment = segments.segment(at: index), !segment.isGap,
                  seen.insert("\(periodIndex) \(segment.number)").inserted else { continue }
            chosen.append((rendition, segment))
        }
        guard !chosen.isEmpty else {
            throw ThumbnailError(.noSamples, "the stream has no segment to choose the best frame from",
                                 input: session.input.name, time: .best)
        }
        return chosen
    }
}
