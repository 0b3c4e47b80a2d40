import ByteSources
import MP4Box
import StreamManifests

extension StreamSeekMap {
    /// The keyframes `ThumbnailTime.best` chooses among in a stream: those starting the segments playing at
    /// `bestFrameCandidateCount` times spread over the stream without its first and last 5 % (its duration, or a live
    /// stream's segments now), each once, in time order, with the rendition each is read from (of an I-frame
    /// playlist, where the period has one: its keyframe there).
    /// - Throws: `ThumbnailError` `noVideo`, `noSamples`; `ManifestError`, or the input's errors.
    package func bestFrameCandidates() async throws -> [(rendition: StreamRendition, segment: StreamSegment)] {
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
            guard let playing = segments.index(playingAt: time), let index = segments.pictureIndex(atOrBefore: playing),
                  let segment = segments.segment(at: index),
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
