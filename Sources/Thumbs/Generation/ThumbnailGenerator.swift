import ByteSources
import FrameDecode
import MP4Box
import StreamManifests

/// Makes thumbnails of a movie or a stream (`Media`), with AVAssetImageGenerator's semantics: a time, tolerances, a
/// maximum size, the preferred track transform, and the actual time of the frame used.
///
/// A movie is read through its `MovieSession`: the index is read once and kept, with the samples fetched and the
/// decoders made, so a run of times costs what the distinct keyframes cost. A stream's picture is placed by its seek
/// map (`StreamSeekMap`: the segment playing at the time, read as a movie, and the time in it) and then made the same
/// way from that segment's movie; its times are on the stream's timeline (nil: 10 % of the duration; `.latest`: the
/// newest keyframe; `.best`: the best of keyframes starting segments spread over the stream; `.frame` is refused: a
/// stream's frames are not numbered), and it says where it came from (`Thumbnail.streamPosition`). Task cancellation
/// stops fetching and decoding.
public struct ThumbnailGenerator: Sendable {
    /// The movie or stream read.
    public let media: Media
    /// What the thumbnails look like.
    public let options: ThumbnailOptions
    /// What a stream's pictures read, by every call (a movie's session counts its own).
    private let streamReads = FetchMeter()

    /// A generator of thumbnails of `media`.
    public init(media: Media, options: ThumbnailOptions = ThumbnailOptions()) {
        self.media = media
        self.options = options
    }

    /// A generator for the movie in `source`, with a session of its own (`MovieSession.init(source:movie:heldBytes:
    /// sampleCacheBytes:workLimits:locator:)`, keeping `options.limits.sampleCacheBytes` of samples): pass `movie`
    /// when its index is already known (from a cache), `limits` to share bounds with other work (then no decoder is
    /// kept between times, so memory stays within them).
    public init(source: any ByteSource, options: ThumbnailOptions = ThumbnailOptions(), movie: Movie? = nil,
                limits: ThumbnailWorkLimits? = nil,
                locator: MovieLocator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand))) {
        self.init(media: .movie(MovieSession(source: source, movie: movie, sampleCacheBytes: options.limits.sampleCacheBytes,
                                                     workLimits: limits, locator: locator)),
                  options: options)
    }

    /// A generator for a local file.
    /// - Throws: `ReadError` when the file cannot be opened.
    public init(path: String, options: ThumbnailOptions = ThumbnailOptions()) throws {
        self.init(source: try FileByteSource(path: path), options: options)
    }

    /// A generator for `input` (a file, an `HTTPInput` from `RangeFetch`, your own).
    /// - Throws: what opening the input throws.
    public init(input: any MovieInput, options: ThumbnailOptions = ThumbnailOptions()) throws {
        self.init(source: try input.open(known: nil), options: options)
    }

    /// The movie, located and parsed on first use (`MovieSession.loadMovie()`).
    /// - Throws: `MP4Error`, or the source's errors; `ThumbnailError` `invalidOption` for a stream, which is read a
    ///   segment at a time and has no one movie.
    public func loadMovie() async throws -> Movie {
        guard case .movie(let session) = media else {
            throw ThumbnailError(.invalidOption, "a stream is read a segment at a time: it has no one movie", input: media.inputName)
        }
        return try await session.loadMovie()
    }

    /// What reading has cost so far, by every call: a movie's `MovieSession.statistics`; what this generator's calls
    /// read of a stream.
    public var statistics: FetchStats {
        get async {
            switch media {
            case .movie(let session): await session.statistics
            case .stream: streamReads.statistics
            }
        }
    }

    /// The thumbnail at `time` (nil: the poster time, else 10 % of the duration).
    /// - Throws: `ThumbnailError` (`noVideo`, `noSamples`, `noFrame`, `limitExceeded`, ..., with this input and
    ///   time), `DecodeError`, `MP4Error`, the source's errors, `CancellationError`; for a stream, `ManifestError`
    ///   and `TransportStreamError` too.
    public func image(at time: ThumbnailTime? = nil) async throws -> Thumbnail {
        try await make(at: time, options: options)
    }

    /// One result of `images(at:)`: the time asked for and its thumbnail or error.
    public struct TimedResult: Sendable {
        /// The time asked for.
        public var requestedTime: ThumbnailTime
        /// The thumbnail, or why there is none.
        public var result: Result<Thumbnail, any Error>

        /// The thumbnail.
        /// - Throws: the error this time failed with.
        public var thumbnail: Thumbnail {
            get throws { try result.get() }
        }
    }

    /// A result for each of `times`, in request order, reusing the index, fetched samples and decoder: as
    /// AVAssetImageGenerator's `images(for:)`, a time that fails gives its error and the next times go on.
    /// The stream ends after the last time, or early when the task iterating it is cancelled.
    public func images(at times: [ThumbnailTime]) -> AsyncStream<TimedResult> {
        AsyncStream { continuation in
            let task = Task {
                for time in times {
                    if Task.isCancelled { break }
                    let result: Result<Thumbnail, any Error>
                    do {
                        result = .success(try await self.image(at: time))
                    } catch {
                        result = .failure(error)
                    }
                    continuation.yield(TimedResult(requestedTime: time, result: result))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A fast result first, then the requested one, as QuickLook's representations: the cover art when the file
    /// has one and `allowsCoverArt`, else (for an exact request) the nearest keyframe; then the thumbnail asked for.
    public func representations(at time: ThumbnailTime? = nil) -> AsyncThrowingStream<Thumbnail, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if let quick = try await self.quickRepresentation(at: time) {
                        continuation.yield(quick)
                    }
                    try Task.checkCancellation()
                    continuation.yield(try await self.image(at: time))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The cover art as a thumbnail, without fetching a sample; nil when the file has none (a stream has none).
    public func coverArt() async throws -> Thumbnail? {
        guard case .movie(let session) = media else { return nil }
        let meter = FetchMeter()
        guard var art = try await meter.measure({ try await coverArtUnmeasured(of: session) }) else { return nil }
        art.count(meter.statistics)
        return art
    }

    private func coverArtUnmeasured(of session: MovieSession) async throws -> Thumbnail? {
        let movie = try await session.loadMovie()
        guard let art = movie.artwork.first(where: { $0.format == .png || $0.format == .jpeg }) else { return nil }
        var timings = Thumbnail.Timings()
        let watch = Stopwatch()
        let image = try CoverArtRenderer.render(art, options: options)
        timings.render = watch.elapsed
        let (encoded, placeholder) = try encode(image, options: options, timings: &timings)
        let zero = MediaTime(value: 0, timescale: movie.timescale)
        return Thumbnail(image: image, encoded: encoded, placeholder: placeholder, requestedTime: zero, actualTime: zero,
                         keyframeTime: zero, isSyncSample: false, orientation: .identity, isCoverArt: true, decodedSamples: 0,
                         bytesFetched: 0, requests: 0, timings: timings)
    }

    private func quickRepresentation(at time: ThumbnailTime?) async throws -> Thumbnail? {
        if options.allowsCoverArt, let art = try await coverArt() { return art }
        if time == .best { return nil }  // its keyframes are its only work: a quick pass would do it twice
        if options.isExact || time.map({ if case .frame = $0 { return true } else { return false } }) == true {
            var quick = options
            quick.requestedTimeToleranceBefore = nil
            quick.requestedTimeToleranceAfter = nil
            return try await make(at: time, options: quick)
        }
        return nil
    }

    // MARK: - Making one thumbnail

    /// Makes one thumbnail of the movie or the stream.
    private func make(at time: ThumbnailTime?, options: ThumbnailOptions) async throws -> Thumbnail {
        switch media {
        case .movie(let session):
            try await make(at: time, options: options, of: session)
        case .stream(let session):
            try await streamReads.measure { try await make(at: time, options: options, of: session) }
        }
    }

    /// Makes one thumbnail of `session`'s movie, with what it fetched counted (`FetchMeter`: exact while other calls
    /// read the session); a `ThumbnailError` thrown on the way gets this input and the time asked for.
    private func make(at time: ThumbnailTime?, options: ThumbnailOptions, of session: MovieSession) async throws -> Thumbnail {
        do {
            try options.validate()  // the time is checked where it is resolved
            let meter = FetchMeter()
            var thumbnail = try await meter.measure { try await makeUnlocated(at: time, options: options, of: session) }
            thumbnail.count(meter.statistics)
            thumbnail.sourceVersion = await KnownVersion(of: session.source)
            return thumbnail
        } catch let error as ThumbnailError {
            throw error.located(input: session.inputName, time: time)
        }
    }

    /// Makes one thumbnail of `session`'s stream: the picture its seek map places (`StreamSeekMap.picture(at:)`),
    /// or the best of its candidates, made from the segment's movie as a movie's is, its times put on the stream's
    /// timeline, with what the playlists, init segment and segment cost counted.
    private func make(at time: ThumbnailTime?, options: ThumbnailOptions, of session: StreamSession) async throws -> Thumbnail {
        let meter = FetchMeter()
        var thumbnail = try await meter.measure {
            if time == .best { return try await bestImage(of: session, options: options) }
            return try await image(of: try await StreamSeekMap(session: session, options: options).picture(at: time),
                                   options: options)
        }
        thumbnail.count(meter.statistics)
        // A Matroska file's picture is of the file's bytes, not of the movie its span was written as.
        if let version = await session.matroskaFileVersion { thumbnail.sourceVersion = version }
        return thumbnail
    }

    /// The thumbnail of `picture`, a place in a stream: made from its segment's movie, its times on the stream's
    /// timeline, dated where the playlist dates the segment.
    package func image(of picture: StreamSeekMap.Picture, options: ThumbnailOptions) async throws -> Thumbnail {
        let placed = picture.placement
        var thumbnail = try await make(at: placed.time(picture.movieTime), options: options, of: placed.session)
        let timescale = placed.track.timescale
        thumbnail.requestedMediaTime = MediaTime(value: StreamSeekMap.ticks(picture.wanted, timescale: timescale), timescale: timescale)
        thumbnail.actualMediaTime = picture.onStreamTimeline(thumbnail.actualMediaTime)
        thumbnail.keyframeMediaTime = picture.onStreamTimeline(thumbnail.keyframeMediaTime)
        let pictureOffset = Duration.seconds(thumbnail.actualTime) - picture.segment.timeRange.lowerBound
        let date = picture.segment.programDateTime.map { StreamDate(sinceEpoch: $0.sinceEpoch + pictureOffset, text: $0.text) }
        thumbnail.streamPosition = StreamPosition(rendition: picture.rendition, segment: picture.segment, programDateTime: date)
        return thumbnail
    }

    private func makeUnlocated(at time: ThumbnailTime?, options: ThumbnailOptions, of session: MovieSession) async throws -> Thumbnail {
        var timings = Thumbnail.Timings()
        let indexWatch = Stopwatch()
        let hadIndex = await session.hasMovie
        var movie: Movie
        switch time {
        case .frame, .best:  // frame numbers count every sample before; candidates spread over all of the movie
            movie = try await session.loadCompleteMovie()
        default:
            movie = try await session.loadMovie()
        }
        var track = try movie.thumbnailTrack()
        if time == .best {
            if !hadIndex { timings.index = indexWatch.elapsed }
            return try await bestThumbnail(of: track, in: session, options: options, timings: timings)
        }
        let (requested, selection) = try ThumbnailTime.resolve(time, in: movie, track: track, selection: options.selection)
        var readIndex = !hadIndex
        if let held = await session.heldSubsegment(of: movie) {  // no read: its samples show how the index's times sit
            movie = try await session.readingFragments([held], of: movie)
            track = try movie.thumbnailTrack()
        }
        // At most three reads: where the index places the time, then what the samples read show is missing.
        for _ in 0..<3 {
            guard let wanted = movie.subsegments(around: requested) else { break }
            movie = try await session.readingFragments(wanted, of: movie)
            track = try movie.thumbnailTrack()
            readIndex = true
        }
        if readIndex { timings.index = indexWatch.elapsed }
        var plan = try FramePlanner.plan(track: track, time: requested, selection: selection, limits: options.limits)
        if let earlier = movie.subsegmentsBefore(plan) {  // a leading picture of the first keyframe read
            movie = try await session.readingFragments(earlier, of: movie)
            track = try movie.thumbnailTrack()
            plan = try FramePlanner.plan(track: track, time: requested, selection: selection, limits: options.limits)
        }
        let made = try await holdingPermit(of: session) { permit in
            try await picture(plan: plan, movie: movie, track: track, in: session, selection: selection, options: options,
                              permit: &permit, timings: &timings)
        }
        return thumbnail(of: made, requestedTime: requested, options: options, timings: timings)
    }

    /// Runs `body` with this thumbnail's picture permit (of the session's shared decode bound; none without one):
    /// everything that holds the thumbnail's pictures runs holding it, and it is given back once they are gone.
    private func holdingPermit<Value>(of session: MovieSession,
                                      _ body: (inout PicturePermit) async throws -> Value) async throws -> Value {
        var permit = PicturePermit(session.workLimits?.decodes)
        do {
            let result = try await body(&permit)
            await permit.giveBack()
            return result
        } catch {
            await permit.giveBack()
            throw error
        }
    }

    /// The thumbnail `ThumbnailTime.best` asks for: the best of the candidate keyframes (`bestKeyframe(of:in:options:
    /// timings:)`, which keeps its sample's bytes and no picture at this size), decoded again, rendered and encoded holding one picture permit; asked for
    /// at the time it shows. Its decoded samples count every candidate decoded and the decode again.
    private func bestThumbnail(of track: MovieTrack, in session: MovieSession, options: ThumbnailOptions,
                               timings: Thumbnail.Timings) async throws -> Thumbnail {
        var timings = timings
        let best = try await bestKeyframe(of: track, in: session, options: options, timings: &timings)
        let made = try await holdingPermit(of: session) { permit in
            try await permit.take()
            let watch = Stopwatch()
            let lease = try session.decoders.take(for: best.plan, of: track, threading: .single,
                                                  limits: options.limits.decoderLimits)
            defer { session.decoders.giveBack(lease) }
            let frame = try DecodeSession.decode(best.plan, bytes: best.bytes, with: lease.decoder, limits: options.limits)
            timings.decode += watch.elapsed
            return try finished(frame, plan: best.plan, track: track, options: options, timings: &timings)
        }
        var thumbnail = thumbnail(of: made, requestedTime: best.plan.targetPresentationTime, options: options, timings: timings)
        thumbnail.candidates = best.chosen.candidates
        thumbnail.decodedSamples = best.chosen.decoded + 1
        return thumbnail
    }

    /// The thumbnail of `made`, asked for at `requestedTime` (in the track's timescale).
    private func thumbnail(of made: Picture, requestedTime: Int64, options: ThumbnailOptions,
                           timings: Thumbnail.Timings) -> Thumbnail {
        let (plan, track) = (made.plan, made.track)
        let time = { (value: Int64) in MediaTime(value: value, timescale: track.timescale) }
        var thumbnail = Thumbnail(image: made.image, encoded: made.encoded, placeholder: made.placeholder,
                                  requestedTime: time(requestedTime), actualTime: time(plan.targetPresentationTime),
                                  keyframeTime: time(plan.keyframePresentationTime), isSyncSample: plan.target.isSync,
                                  orientation: options.appliesPreferredTrackTransform ? (track.orientation ?? .identity) : .identity,
                                  isCoverArt: false, decodedSamples: plan.samples.count,
                                  bytesFetched: 0, requests: 0, timings: timings)
        thumbnail.warnings = track.visualEntry?.codecDescription.caveats ?? []
        return thumbnail
    }

    /// What the picture stage made: the thumbnail's image, its file and placeholder, and the plan and track of the
    /// frame shown (a later keyframe's when dark frames are skipped).
    private struct Picture {
        var image: RGBImage
        var encoded: [UInt8]
        var placeholder: ThumbHash?
        var plan: FramePlan
        var track: MovieTrack
    }

    /// Decodes `plan`'s frame (or, skipping dark frames, a later keyframe's), renders and encodes it, holding `permit`
    /// from before the decoder is made: the frames and the decoder are gone when this returns. When the decoder fails
    /// on a sample, the nearest frame before it inside `selection`'s window is shown instead
    /// (`FramePlanner.fallback(for:failedAt:in:selection:limits:)`), its time the actual time; with none, the
    /// decoder's error (naming the sample and why) is thrown.
    private func picture(plan: FramePlan, movie: Movie, track: MovieTrack, in session: MovieSession, selection: FrameSelection,
                         options: ThumbnailOptions,
                         permit: inout PicturePermit, timings: inout Thumbnail.Timings) async throws -> Picture {
        var (plan, movie, track) = (plan, movie, track)
        var frame: DecodedFrame
        do {
            frame = try await decode(plan, track: track, of: movie, in: session, options: options, permit: &permit, timings: &timings)
        } catch let error as DecodeError {
            guard let failed = error.sampleIndex,
                  let fallback = try FramePlanner.fallback(for: plan, failedAt: failed, in: track, selection: selection,
                                                           limits: options.limits) else { throw error }
            plan = fallback
            frame = try await decode(plan, track: track, of: movie, in: session, options: options, permit: &permit, timings: &timings)
        }
        if options.skipsDarkFrames {
            var attempts = 0
            while attempts < 8, DarkFrameDetector.isDarkOrFlat(frame) {
                if let following = movie.subsegment(after: plan.target) {
                    movie = try await session.readingFragments([following], of: movie)
                    track = try movie.thumbnailTrack()
                }
                guard let next = try nextKeyframe(after: plan.targetPresentationTime, in: track) else { break }
                attempts += 1
                plan = try FramePlanner.plan(track: track, time: track.presentationTime(of: next), selection: .nearestKeyframe,
                                             limits: options.limits)
                frame = try await decode(plan, track: track, of: movie, in: session, options: options, permit: &permit, timings: &timings)
            }
        }
        return try finished(frame, plan: plan, track: track, options: options, timings: &timings)
    }

    /// `frame`, `plan`'s picture of `track`, rendered and encoded as `options` ask.
    private func finished(_ frame: DecodedFrame, plan: FramePlan, track: MovieTrack, options: ThumbnailOptions,
                          timings: inout Thumbnail.Timings) throws -> Picture {
        try Task.checkCancellation()
        let renderWatch = Stopwatch()
        let image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: options))
        timings.render = renderWatch.elapsed
        let (encoded, placeholder) = try encode(image, options: options, timings: &timings)
        return Picture(image: image, encoded: encoded, placeholder: placeholder, plan: plan, track: track)
    }

    /// `image` in `options.format` (nothing when it is nil) and, with `makesPlaceholder`, its ThumbHash; the time
    /// both took in `timings`.
    private func encode(_ image: RGBImage, options: ThumbnailOptions,
                        timings: inout Thumbnail.Timings) throws -> ([UInt8], ThumbHash?) {
        let watch = Stopwatch()
        try Task.checkCancellation()
        let encoded = try options.format?.encode(image) ?? []
        try Task.checkCancellation()
        let placeholder = options.makesPlaceholder ? try ThumbHash(image: image) : nil
        timings.encode = watch.elapsed
        return (encoded, placeholder)
    }

    /// Decodes `plan` (`MovieSession.decode`), with its alpha plane where `movie` has one and `options.format` can
    /// hold it, one thread per picture, its samples kept for later times; the time
    /// its fetches and decoding took added to `timings`.
    private func decode(_ plan: FramePlan, track: MovieTrack, of movie: Movie, in session: MovieSession, options: ThumbnailOptions,
                        permit: inout PicturePermit,
                        timings: inout Thumbnail.Timings) async throws -> DecodedFrame {
        // The alpha plane, where the movie has one and the picture can keep it (not in a JPEG).
        let alphaTrack = options.format?.holdsAlpha ?? true ? movie.alphaTrack(of: track) : nil
        let picture = try await session.decode(plan, of: track, limits: options.limits, threading: .single, permit: &permit,
                                               alphaTrack: alphaTrack)
        timings.fetch += picture.fetchTime
        timings.decode += picture.decodeTime
        return picture.frame
    }

    /// The first sync sample shown after `time`.
    private func nextKeyframe(after time: Int64, in track: MovieTrack) throws -> Sample? {
        guard let current = try track.syncSample(atOrBefore: time),
              let position = track.samples.syncIndex(atOrBefore: current.index) else { return nil }
        var next = position + 1
        while next < track.samples.syncSampleCount {
            let candidate = try track.samples.sample(at: track.samples.sampleIndex(ofSyncSample: next))
            if track.presentationTime(of: candidate) > time { return candidate }
            next += 1
        }
        return nil
    }
}
