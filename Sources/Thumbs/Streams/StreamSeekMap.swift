import ByteSources
import MP4Box
import StreamManifests

/// The seek map of an HLS or DASH stream: where the picture for a time is (the segment, read as a movie, and the
/// time in it), as `MovieTrack`'s sync samples say it for a movie. `ThumbnailGenerator` makes the picture there with
/// the movie's own planner, fetch and decode. Reading only the playlists, the chosen rendition's init segment and
/// the head of one segment (with its keyframe): a time on the stream's timeline, tolerances, a maximum size (which
/// also picks the rendition: the smallest whose picture covers it, else the largest).
///
/// The segment playing at the time is read as a fragmented movie (its init segment, then its bytes); with the
/// default tolerance, the keyframe nearest the time is taken from it, or from the next segment when that one starts
/// nearer (segments start with a keyframe). Exact and bounded requests stay in the segment playing at the time.
///
/// An MPEG-TS segment (HLS without an init segment) is read in growing ranges until the picture's access unit is
/// whole, and its video becomes an in-memory movie for the same decoding. With the default tolerance its keyframes
/// are the segments' starts, the nearer one taken: the keyframes inside a TS segment are found only by reading up to
/// them. Exact and bounded requests read the segment up to the time.
///
/// Where an HLS master names an I-frame playlist, the default tolerance takes the keyframe nearest the time from it
/// (it lists every keyframe with its time and bytes, inside segments too), and reads that keyframe's range alone.
package struct StreamSeekMap: Sendable {
    /// The stream read.
    package let session: StreamSession
    /// What the pictures look like: the maximum size chooses the rendition, the tolerances the keyframe.
    package let options: ThumbnailOptions

    /// The seek map of `session`'s stream for pictures as `options` ask.
    package init(session: StreamSession, options: ThumbnailOptions) {
        self.session = session
        self.options = options
    }

    /// A picture's place in the stream: the reading of its segment as a movie and the time in it, and the time asked
    /// for on the stream's timeline.
    package struct Picture {
        /// The segment read as a movie.
        package var placement: Placement
        /// The time of the picture on the segment movie's track.
        package var movieTime: Int64
        /// The time asked for, on the stream's timeline.
        package var wanted: Duration
        /// The segment the picture is in.
        package var segment: StreamSegment
        /// The rendition the segment is of.
        package var rendition: StreamRendition

        /// `value`, a time on the segment movie's track, on the stream's timeline (in the track's timescale).
        package func onStreamTimeline(_ time: MediaTime) -> MediaTime {
            let timescale = placement.track.timescale
            guard time.timescale == timescale else { return time }
            let offset = StreamSeekMap.ticks(segment.timeRange.lowerBound, timescale: timescale) &- placement.firstPresentation
            return MediaTime(value: time.value.addingReportingOverflow(offset).overflow ? time.value : time.value + offset,
                             timescale: timescale)
        }
    }

    /// Where the picture at `time` is on the stream's timeline (nil: 10 % of the duration; `.latest`: `newest()`;
    /// `.best` and `.frame` are refused: the best frame is chosen among keyframes, and a stream's frames are not
    /// numbered).
    /// - Throws: `ThumbnailError` (`invalidOption`, `noVideo` when no rendition has pictures this reader can read,
    ///   `noSamples`), `ManifestError`, and what reading the segment throws.
    package func picture(at time: ThumbnailTime?) async throws -> Picture {
        try time?.validate()
        if time == .latest { return try await newest() }
        return try await make(at: time)
    }

    /// The newest keyframe of the stream: the last an HLS I-frame playlist lists, where there is one; else of a live
    /// stream, the last keyframe of the newest segment available (the last one an HLS playlist lists; the last one a
    /// live DASH SegmentTimeline lists, or, without one, the last one whose end has passed by
    /// `StreamSession.wallClock`); of a stream that has ended, its last keyframe. (Of an MPEG-TS segment, whose
    /// keyframes are found only by reading, its first.)
    /// - Throws: as `picture(at:)`.
    package func newest() async throws -> Picture {
        let presentation = try await session.loadPresentation()
        guard let period = presentation.periods.last(where: { !$0.renditions.isEmpty }) else {
            throw ThumbnailError(.noVideo, "the stream has no period", input: session.input.name)
        }
        // An I-frame playlist names the newest keyframe itself: its last.
        if let listed = rendition(in: period, iFrameOnly: true),
           case let iFrames = try await session.withSegments(listed), let segments = iFrames.segments,
           let last = segments.count.map({ $0 - 1 }), let index = segments.pictureIndex(atOrBefore: last),
           let keyframe = segments.segment(at: index) {
            return try await picture(in: keyframe, at: keyframe.timeRange.lowerBound, rendition: iFrames, time: nil)
        }
        let (rendition, segments) = try await chosenRendition(in: period, time: nil)
        let newest: Int
        if let count = segments.count {
            newest = count - 1
        } else {
            // An open template: the segment playing at the live edge is still being made; the one before it is the
            // newest there is.
            guard let edge = segments.liveEdge(availabilityStart: presentation.availabilityStartTime, now: session.wallClock()),
                  let playing = segments.index(containing: edge) else {
                throw ThumbnailError(.noSamples, "the live stream names no segment now (its availability start and the clock)",
                                     input: session.input.name)
            }
            newest = max(0, playing - 1)
        }
        guard let index = segments.pictureIndex(atOrBefore: newest), let segment = segments.segment(at: index) else {
            throw ThumbnailError(.noSamples, "the rendition has no segment with pictures", input: session.input.name)
        }
        // The keyframe nearest the segment's end: its last.
        let end = segment.timeRange.upperBound > segment.timeRange.lowerBound
            ? segment.timeRange.upperBound - .nanoseconds(1) : segment.timeRange.lowerBound
        return try await picture(in: segment, at: end, rendition: rendition, time: nil)
    }

    /// The video rendition of `period` for the options' size, with its segments; an I-frame playlist's where the
    /// stream is nothing else (a lone I-frames-only playlist).
    /// - Throws: `ThumbnailError` `noVideo` (no video rendition, or every one encrypted, as the message says),
    ///   `noSamples` (no segments), with `time` for the message; `ManifestError`, or the input's errors, reading the
    ///   media playlist.
    package func chosenRendition(in period: StreamPeriod,
                                 time: ThumbnailTime? = nil) async throws -> (StreamRendition, StreamSegments) {
        guard let chosen = rendition(in: period) ?? rendition(in: period, iFrameOnly: true) else {
            let hasVideo = period.renditions.contains { $0.kind == .video || $0.kind == .unknown }
            throw ThumbnailError(.noVideo, hasVideo ? "every video rendition of the stream is encrypted" : "the stream has no video rendition",
                                 input: session.input.name, time: time)
        }
        let rendition = try await session.withSegments(chosen)
        guard let segments = rendition.segments, segments.first != nil else {
            throw ThumbnailError(.noSamples, "the rendition has no segments", input: session.input.name, time: time)
        }
        return (rendition, segments)
    }

    private func make(at time: ThumbnailTime?) async throws -> Picture {
        let presentation = try await session.loadPresentation()
        // The period where the time falls when the duration is known; an HLS master playlist has one.
        var target = try presentation.duration.map { duration throws(ThumbnailError) in try resolve(time, duration: duration) }
        guard let period = target.flatMap(presentation.period(at:)) ?? presentation.periods.first else {
            throw ThumbnailError(.noVideo, "the stream has no period", input: session.input.name, time: time)
        }
        if let picture = try await iFramePicture(in: period, target: target, time: time) { return picture }
        let (rendition, segments) = try await chosenRendition(in: period, time: time)
        guard let first = segments.first else {
            throw ThumbnailError(.noSamples, "the rendition has no segments", input: session.input.name, time: time)
        }
        if target == nil {
            target = try resolve(time, duration: segments.timeRange?.upperBound ?? first.timeRange.upperBound)
        }
        let wanted = target ?? .zero
        guard let index = segments.index(playingAt: wanted), let segment = segments.segment(at: index) else {
            throw ThumbnailError(.noSamples, "no segment plays at \(wanted)", input: session.input.name, time: time)
        }
        if rendition.isIFrameOnly, !usesNearestKeyframe, wanted > segment.timeRange.lowerBound {
            return try await pictureAfterKeyframe(segment, at: wanted, following: segments.segment(at: index + 1),
                                                  rendition: rendition, time: time)
        }
        return try await picture(in: segment, at: wanted, rendition: rendition, time: time,
                                 next: segments.segment(at: index + 1))
    }

    /// The frame at `wanted` after the keyframe `keyframe` of an I-frames-only playlist, with a tolerance (`--exact`
    /// or bounds): an MPEG-TS keyframe's frames follow it in the same file, so the file is read on from the keyframe's
    /// range up to the next keyframe of the same file (`following`), or on to the file's end where there is none. A
    /// fragmented MP4 keyframe's range holds no more than its fragment's keyframe, so its later frames cannot be read
    /// from the I-frame playlist.
    /// - Throws: `ThumbnailError` `noFrame` naming the media playlist where the frames cannot be read; as `picture(at:)`.
    private func pictureAfterKeyframe(_ keyframe: StreamSegment, at wanted: Duration, following: StreamSegment?,
                                      rendition: StreamRendition, time: ThumbnailTime?) async throws -> Picture {
        let cannot = ThumbnailError(.noFrame, "an I-frames-only playlist holds keyframes; use the media playlist for exact frames",
                                    input: session.input.name, time: time)
        guard let range = keyframe.resource.byteRange,
              case .transport = try await session.reading(of: keyframe, inIFramePlaylist: true,
                                                        bitRate: rendition.typicalBitRate) else { throw cannot }
        var end: UInt64
        if let following, !following.isGap, following.resource.url == keyframe.resource.url,
           let next = following.resource.byteRange?.lowerBound, next > range.lowerBound {
            end = next
        } else if let length = await session.length(of: keyframe.resource.url), length > range.lowerBound {
            end = length
        } else {
            // The file's end, as a TS segment without a byte range is read: as far as the frame needs.
            end = min(range.lowerBound.saturatingAdd(TransportSegment.maximumSegmentBytes), StreamResource.maximumOffset)
        }
        end = max(end, range.upperBound)
        var span = keyframe
        span.resource.byteRange = range.lowerBound ..< end
        if let following, following.timeRange.lowerBound > keyframe.timeRange.lowerBound {
            span.timeRange = keyframe.timeRange.lowerBound ..< following.timeRange.lowerBound
        }
        let placed = try await placement(of: span, in: rendition, through: wanted, wantsFirstKeyframe: false)
        return picture(placed, of: span, at: placed.movieTime(at: wanted, in: span), wanted: wanted, rendition: rendition)
    }

    /// The picture at `wanted` (on the stream's timeline) in `segment`, or, with the default tolerance, at the start
    /// of `next` when that is nearer than any keyframe of `segment`.
    private func picture(in segment: StreamSegment, at wanted: Duration, rendition: StreamRendition, time: ThumbnailTime?,
                         next: StreamSegment? = nil) async throws -> Picture {
        var segment = segment
        var next = next
        // The segment's first keyframe is surely the one wanted only at its start (a segment starts with one), or
        // when the segment is an I-frame playlist's keyframe.
        let wantsFirstKeyframe = wanted <= segment.timeRange.lowerBound || rendition.isIFrameOnly
        if usesNearestKeyframe, let following = next, !following.isGap, following.timeRange.lowerBound > wanted,
           try await session.reading(of: segment, inIFramePlaylist: rendition.isIFrameOnly, wantsFirstKeyframe: wantsFirstKeyframe,
                                     bitRate: rendition.typicalBitRate).readsForward {
            // A TS segment's (a Matroska span's) keyframes past its first are found only by reading up to them: the
            // keyframes known are the segments' starts, and the nearer one is read.
            if following.timeRange.lowerBound - wanted < wanted - segment.timeRange.lowerBound { segment = following }
            next = nil
        }
        var placed = try await placement(of: segment, in: rendition, through: usesNearestKeyframe ? nil : wanted,
                                         wantsFirstKeyframe: wantsFirstKeyframe, near: wanted)
        var movieTime = placed.movieTime(at: wanted, in: segment)
        // The nearest keyframe may start the next segment.
        if usesNearestKeyframe, let next, !next.isGap, next.timeRange.lowerBound > wanted {
            let nearest = try placed.track.syncSample(nearest: movieTime).map { placed.track.presentationTime(of: $0) }
            let distance = nearest.map { ($0 - movieTime).magnitude } ?? .max
            let nextDistance = Self.ticks(next.timeRange.lowerBound - wanted, timescale: placed.track.timescale)
            if UInt64(clamping: nextDistance) < distance {
                segment = next
                placed = try await placement(of: next, in: rendition)
                movieTime = placed.firstPresentation
            }
        }
        return picture(placed, of: segment, at: movieTime, wanted: wanted, rendition: rendition)
    }

    /// The picture at `movieTime` of `segment` as `placed` reads it, asked for at `wanted`.
    private func picture(_ placed: Placement, of segment: StreamSegment, at movieTime: Int64, wanted: Duration,
                         rendition: StreamRendition) -> Picture {
        Picture(placement: placed, movieTime: movieTime, wanted: wanted, segment: segment, rendition: rendition)
    }

    /// Whether the options ask for the keyframe nearest the time (the default tolerance).
    private var usesNearestKeyframe: Bool {
        options.requestedTimeToleranceBefore == nil && options.requestedTimeToleranceAfter == nil
    }

    /// With the default tolerance, the picture of the keyframe nearest the time from the I-frame playlist of
    /// `period`, when it has one that is not encrypted: it names every keyframe, its time and its bytes, so the one
    /// nearest is read alone, even inside a segment. Nil without one.
    private func iFramePicture(in period: StreamPeriod, target: Duration?, time: ThumbnailTime?) async throws -> Picture? {
        guard usesNearestKeyframe, let listed = rendition(in: period, iFrameOnly: true) else { return nil }
        let rendition = try await session.withSegments(listed)
        guard let segments = rendition.segments, let first = segments.first else { return nil }
        let wanted = try target ?? resolve(time, duration: segments.timeRange?.upperBound ?? first.timeRange.upperBound)
        guard var index = segments.index(playingAt: wanted) else { return nil }
        // The keyframe whose interval holds the time, or the next when it is nearer.
        if let this = segments.segment(at: index), let next = segments.segment(at: index + 1), !next.isGap,
           next.timeRange.lowerBound - wanted < wanted - this.timeRange.lowerBound {
            index += 1
        }
        guard let shown = segments.pictureIndex(atOrBefore: index), let keyframe = segments.segment(at: shown) else { return nil }
        return try await picture(in: keyframe, at: wanted, rendition: rendition, time: time)
    }

    /// The place of the keyframe that starts `segment` of `rendition` (a segment starts with one; a segment of an
    /// I-frame playlist is one), with no other segment read: a stream storyboard's tile. For a segment that is a whole
    /// movie (a DASH SegmentBase file), the keyframe nearest the segment's start.
    /// - Throws: as `picture(at:)`.
    package func keyframePicture(startingSegment segment: StreamSegment, of rendition: StreamRendition) async throws -> Picture {
        try await picture(in: segment, at: segment.timeRange.lowerBound, rendition: rendition, time: nil)
    }

    /// The place of the keyframe nearest `time` in `segment` of `rendition`, whose keyframes a search finds
    /// (`StreamSegment.keyframesFoundBySearch`): a storyboard's tile of a transport stream file.
    /// - Throws: as `picture(at:)`.
    package func keyframePicture(nearest time: Duration, in segment: StreamSegment, of rendition: StreamRendition) async throws -> Picture {
        try await picture(in: segment, at: time, rendition: rendition, time: nil)
    }

    /// The video rendition of `period` for the options' size (`StreamPeriod.videoRendition(fitting:_:iFrameOnly:)`).
    package func rendition(in period: StreamPeriod, iFrameOnly: Bool = false) -> StreamRendition? {
        let size = options.maximumSize
        return period.videoRendition(fitting: size.width > 0 ? size.width : nil, size.height > 0 ? size.height : nil,
                                     iFrameOnly: iFrameOnly)
    }

    /// `time` on a stream that lasts `duration`, clamped to what a Duration holds.
    private func resolve(_ time: ThumbnailTime?, duration: Duration) throws(ThumbnailError) -> Duration {
        let seconds: Double
        switch time {
        case nil: return duration / 10
        case .seconds(let value): seconds = value
        case .rational(let value, let timescale): seconds = Double(value) / Double(timescale)
        case .fraction(let fraction): seconds = duration.seconds * min(max(fraction, 0), 1)
        case .latest:
            return duration
        case .frame:
            throw ThumbnailError(.invalidOption, "a stream's frames are not numbered: ask for a time or a fraction",
                                 input: session.input.name, time: time)
        case .best:
            throw ThumbnailError(.invalidOption, "the best frame is no one time: it is chosen among the segments' keyframes",
                                 input: session.input.name, time: time)
        }
        return .seconds(min(max(seconds, -1e12), 1e12))
    }

    /// `duration` in ticks of `timescale`, to the nearest tick (saturated).
    package static func ticks(_ duration: Duration, timescale: UInt32) -> Int64 {
        let value = (duration.seconds * Double(timescale)).rounded()
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int64(value)
    }

    /// A segment read as a movie: its session, its video track, and where its first picture is on the track's
    /// presentation timeline.
    package struct Placement {
        package var session: MovieSession
        package var track: MovieTrack
        package var firstPresentation: Int64

        package init(session: MovieSession, track: MovieTrack, firstPresentation: Int64) {
            self.session = session
            self.track = track
            self.firstPresentation = firstPresentation
        }

        /// The placement of a movie written from a segment's demuxed frames, with where its first picture is.
        init(_ demuxed: (session: MovieSession, firstPresentation: Int64)) async throws {
            self.init(session: demuxed.session, track: try await demuxed.session.loadMovie().thumbnailTrack(),
                      firstPresentation: demuxed.firstPresentation)
        }

        /// The track's time of `time` on the stream, in `segment`.
        package func movieTime(at time: Duration, in segment: StreamSegment) -> Int64 {
            firstPresentation &+ StreamSeekMap.ticks(time - segment.timeRange.lowerBound, timescale: track.timescale)
        }

        /// `value` on the track's timeline as a time to ask a generator for.
        package func time(_ value: Int64) -> ThumbnailTime {
            if track.timescale <= UInt32(Int32.max) {
                return .rational(value: value, timescale: Int32(track.timescale))
            }
            return .seconds(Double(value) / Double(track.timescale))
        }
    }

    /// `segment` read as a movie, as far as a picture at `wanted` (on the stream's timeline) needs it; nil: its
    /// first keyframe (an MPEG-TS segment is read from its start: without an index, the keyframes after its first
    /// are found only by reading up to them). `wantsFirstKeyframe`: the picture is the segment's first keyframe
    /// (`StreamSession.reading(of:inIFramePlaylist:wantsFirstKeyframe:)`). `near`: the time the picture is asked
    /// for, where a segment finds its keyframes by a search (a Matroska file without Cues: the read starts at the
    /// Cluster playing then).
    package func placement(of segment: StreamSegment, in rendition: StreamRendition, through wanted: Duration? = nil,
                           wantsFirstKeyframe: Bool = true, near: Duration? = nil) async throws -> Placement {
        let segmentMovie: StreamSession.SegmentMovie
        switch try await session.reading(of: segment, inIFramePlaylist: rendition.isIFrameOnly,
                                         wantsFirstKeyframe: wantsFirstKeyframe, bitRate: rendition.typicalBitRate) {
        case .movie(let movie):
            segmentMovie = movie
        case .transport(let transport):
            let offset = wanted.map { Self.ticks(max($0 - segment.timeRange.lowerBound, .zero), timescale: 90_000) }
            return try await Placement(transport.movie(through: offset))
        case .matroska(let span):
            return try await Placement(span.movie(near: near, through: wanted))
        case .transportFile(let file):
            return try await Placement(file.movie(near: near ?? wanted ?? segment.timeRange.lowerBound, through: wanted))
        }
        var movie = try await segmentMovie.session.loadMovie()
        if !segmentMovie.isWholeResource, movie.hasUnreadFragments, movie.readSubsegments.isEmpty {
            // The first fragment (its moof is in the segment's head): where the segment's first picture is.
            movie = try await segmentMovie.session.readingFragments([0], of: movie)
        }
        let track = try movie.thumbnailTrack()
        if segmentMovie.isWholeResource {
            // The resource's own timeline: the segment starts where the manifest puts its media.
            let start = Self.ticks(segment.mediaStart ?? .zero, timescale: track.timescale)
            return Placement(session: segmentMovie.session, track: track, firstPresentation: start)
        }
        guard let first = try track.firstPresentedSample() else {
            throw ThumbnailError(.noSamples, "segment \(segment.number) (\(segment.resource)) has no video samples",
                                 input: session.input.name)
        }
        return Placement(session: segmentMovie.session, track: track, firstPresentation: track.presentationTime(of: first))
    }
}
