import ByteSources
import MP4Box
import StreamManifests

extension AnimatedPreviewMaker {
    /// The preview of a span of `session`'s stream: its parts, one per segment playing in the span, each planned and
    /// decoded in its segment's movie (a fragmented segment read as its thumbnail reads it: the init segment once, the
    /// moof, then the samples the frames need; an MPEG-TS segment from its start up to the part's last frame; a DASH
    /// SegmentBase file: the fragments the span is in).
    func preview(of session: StreamSession) async throws -> AnimatedPreview {
        let presentation = try await session.loadPresentation()
        var thumbnailOptions = ThumbnailOptions()
        thumbnailOptions.maximumSize = PixelSize(width: options.width, height: 0)
        let seekMap = StreamSeekMap(session: session, options: thumbnailOptions)
        var renditions: [Duration: (StreamRendition, StreamSegments)] = [:]
        func rendition(in period: StreamPeriod) async throws -> (StreamRendition, StreamSegments) {
            if let kept = renditions[period.start] { return kept }
            let chosen = try await seekMap.chosenRendition(in: period)
            renditions[period.start] = chosen
            return chosen
        }
        // Where the stream ends: the manifest's duration, or (an HLS master's) its last period's segments' end, or
        // (a live template without one) where its newest whole segment ends by the clock.
        var streamEnd = presentation.duration
        if streamEnd == nil, let last = presentation.periods.last(where: { !$0.renditions.isEmpty }) {
            let segments = try await rendition(in: last).1
            streamEnd = segments.timeRange?.upperBound ?? session.liveEdge(of: segments, in: presentation)
        }
        let start = options.start
        if let streamEnd, start >= streamEnd {
            throw ThumbnailError(.invalidOption, "the start (\(start.seconds) s) is not before the end of the stream (\(streamEnd.seconds) s)",
                                 input: session.input.name)
        }
        var end = min(options.end ?? start + .seconds(5), start + AnimatedPreviewOptions.maximumDuration)
        if let streamEnd { end = min(end, streamEnd) }
        let fps = options.framesPerSecond
        let slotCount = max(1, Int(((end - start).seconds * fps).rounded(.up)))
        func slotTime(_ slot: Int) -> Duration { start + .seconds(Double(slot) / fps) }
        let halfFrame = Duration.seconds(0.5 / fps)

        // The rendition each period the pictures came from, by its start (renditions are not compared whole: a
        // rendition holds its segments).
        var used: [(period: Duration, rendition: StreamRendition)] = []
        var segmentsRead: [StreamSegment] = []
        var assembly = AnimationAssembly(options: options)
        // Frame times moved on to the next segment, whose first keyframe they show: through `through`, in segment
        // `index` of the period starting at `period`.
        var carried: (period: Duration, index: Int, through: Int)?
        // Each turn takes at least one frame time (at most 300), or moves them on to a later segment.
        var slot = 0
        while slot < slotCount {
            let time = slotTime(slot)
            guard let period = carried.flatMap({ moved in presentation.periods.first { $0.start == moved.period } })
                    ?? presentation.period(at: time) else {
                throw ThumbnailError(.noVideo, "the stream has no period", input: session.input.name)
            }
            let (rendition, segments) = try await rendition(in: period)
            guard let index = carried?.index ?? segments.index(playingAt: time),
                  let segment = segments.segment(at: index) else {
                throw ThumbnailError(.noSamples, "no segment plays at \(time)", input: session.input.name)
            }
            if slot == 0, carried == nil, index == 0, time + halfFrame < segment.timeRange.lowerBound {
                throw ThumbnailError(.invalidOption, "the start (\(start.seconds) s) is before the stream's first segment "
                                     + "(\(segment.timeRange.lowerBound.seconds) s)", input: session.input.name)
            }
            // The frame times moved here, and those in this segment and period.
            var last = max(slot, carried?.through ?? slot)
            carried = nil
            while last + 1 < slotCount, presentation.period(at: slotTime(last + 1))?.start == period.start,
                  segments.index(playingAt: slotTime(last + 1)) == index {
                last += 1
            }
            let first = slot
            defer { slot = last + 1 }
            // A segment the playlist marks as missing shows nothing: the frame before goes on.
            if segment.isGap { continue }
            // Read as far as the last frame time, and a keyframe within half a frame after it.
            let placed = try await seekMap.placement(of: segment, in: rendition, through: slotTime(last) + halfFrame,
                                                       wantsFirstKeyframe: time <= segment.timeRange.lowerBound)
            let track = try await segmentTrack(placed, times: (first...last).map { placed.movieTime(at: slotTime($0), in: segment) })
            // A frame time shows the keyframe nearest it within half a frame: the next segment's first, for the last
            // frame times, when that is nearer than any keyframe of this one.
            if let next = segments.segment(at: index + 1), !next.isGap,
               presentation.period(at: next.timeRange.lowerBound)?.start == period.start {
                var cut = last + 1
                while cut > first {
                    let ahead = next.timeRange.lowerBound - slotTime(cut - 1)
                    guard ahead > .zero, ahead <= halfFrame else { break }
                    let movieTime = placed.movieTime(at: slotTime(cut - 1), in: segment)
                    let nearest = try track.syncSample(nearest: movieTime).map { track.presentationTime(of: $0) }
                    let distance = nearest.map { ($0 - movieTime).magnitude } ?? .max
                    guard UInt64(clamping: StreamSeekMap.ticks(ahead, timescale: track.timescale)) < distance else { break }
                    cut -= 1
                }
                if cut <= last {
                    carried = (period.start, index + 1, last)
                    last = cut - 1
                }
            }
            guard last >= first else { continue }
            let slots = (first...last).map { index in
                AnimationPlan.Slot(startMilliseconds: AnimationPlan.milliseconds(ofFrame: index, framesPerSecond: fps),
                                   trackSeconds: Double(placed.movieTime(at: slotTime(index), in: segment)) / Double(track.timescale))
            }
            let plan = try AnimationPlan(track: track, slots: slots, framesPerSecond: fps, limits: options.limits)
            let offset = StreamSeekMap.ticks(segment.timeRange.lowerBound, timescale: track.timescale) &- placed.firstPresentation
            try await assembly.add(plan, of: track, in: placed.session, sourceTimeOffset: offset)
            segmentsRead.append(segment)
            if !used.contains(where: { $0.period == period.start }) { used.append((period.start, rendition)) }
        }
        var made = try assembly.finish(durationMilliseconds: Int(((end - start).seconds * 1000).rounded()))
        made.streamRenditions = used.map(\.rendition)
        made.streamSegments = segmentsRead
        return made
    }

    /// The video track of a placed segment with the samples of `times` (its movie's): a segment's every fragment,
    /// or of a whole file (DASH SegmentBase) the fragments those times are in.
    private func segmentTrack(_ placed: StreamSeekMap.Placement, times: [Int64]) async throws -> MovieTrack {
        var movie = try await placed.session.loadMovie()
        if movie.hasUnreadFragments {
            if movie.fragmentIndex != nil {
                var needed = Set<Int>()
                for time in times { needed.formUnion(movie.subsegments(around: time) ?? []) }
                if !needed.isEmpty { movie = try await placed.session.readingFragments(needed.sorted(), of: movie) }
            } else {
                movie = try await placed.session.loadCompleteMovie()
            }
        }
        return try movie.thumbnailTrack()
    }
}
