import ByteSources
import FrameDecode
import MP4Box

/// Makes thumbnails of one movie, with AVAssetImageGenerator's semantics: a time, tolerances, a maximum size,
/// the preferred track transform, and the actual time of the frame used.
///
/// The index is read once and kept; `images(at:)` also keeps the decoder and the samples it fetched, so a
/// run of times costs what the distinct keyframes cost. Task cancellation stops fetching and decoding.
public actor ThumbnailGenerator {
    /// The movie's bytes (every read is counted, by the source itself where it can, else here).
    nonisolated let source: CountingByteSource
    /// What the thumbnails look like.
    public let options: ThumbnailOptions
    private var movie: Movie?
    private var decoder: (any VideoDecoder)?
    /// The sample description index `decoder` was made for.
    private var decoderDescriptionIndex: UInt32 = 0
    /// Whether `decoder` was made for keyframes alone (it cannot decode a run of frames).
    private var decoderIsForKeyframes = false
    /// Sample bytes fetched by earlier times (at most `options.limits.sampleCacheBytes`).
    private var sampleCache: SampleByteCache
    /// Bounds on concurrent fetches and pictures shared with other generators (a `ThumbnailService`'s): each
    /// thumbnail holds one of `decodes` from before its decoder is made until it is encoded, and keeps no decoder.
    private let limits: ThumbnailWorkLimits?
    /// How the index is found.
    private let locator: MovieLocator
    /// Media bytes read while locating the index (a keyframe in the head of a short file costs no further read).
    private var heldBytes = HeldBytes()
    /// The bytes of the index boxes this generator read (`MovieLocator.Result.indexBytes`, with the moofs read on
    /// demand since), for keeping the index elsewhere (`MovieIndexDirectory`); empty for a movie given at `init`.
    public private(set) var indexBytes = HeldBytes()

    /// A generator for the movie in `source`; pass `movie` when its index is already known (from a cache), `limits`
    /// to share bounds with other work (then no decoder is kept between times, so memory stays within them). The
    /// default `locator` reads a fragmented movie's moofs on demand: a thumbnail reads the ones its time needs.
    public init(source: any ByteSource, options: ThumbnailOptions = ThumbnailOptions(), movie: Movie? = nil,
                limits: ThumbnailWorkLimits? = nil,
                locator: MovieLocator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand))) {
        self.source = CountingByteSource(source)
        self.options = options
        sampleCache = SampleByteCache(capacity: options.limits.sampleCacheBytes)
        self.movie = movie
        self.limits = limits
        self.locator = locator
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

    /// The movie, located and parsed on first use. With a locator that reads fragments on demand (the default), a
    /// fragmented movie whose video track has a segment index holds the fragments the thumbnails so far needed
    /// (`Movie.hasUnreadFragments`, `Movie.readSubsegments`).
    /// - Throws: `MP4Error`, or the source's errors.
    public func loadMovie() async throws -> Movie {
        if let movie { return movie }
        let located = try await locator.locate(in: source)
        movie = located.movie
        heldBytes = located.heldBytes
        indexBytes = located.indexBytes
        return located.movie
    }

    /// What reading the movie has cost so far (the source's own statistics where it keeps them: for HTTP, every
    /// request and body byte on the wire).
    public nonisolated var statistics: FetchStats {
        get async { await source.statistics ?? FetchStats() }
    }

    /// Requests and bytes read for this generator so far.
    public nonisolated var totals: (requests: Int, bytes: UInt64) {
        get async {
            let statistics = await statistics
            return (statistics.requests, statistics.bytes)
        }
    }

    /// The thumbnail at `time` (nil: the poster time, else 10 % of the duration).
    /// - Throws: `ThumbnailError` (`noVideo`, `noSamples`, `noFrame`, `limitExceeded`, ..., with this input and
    ///   time), `DecodeError`, `MP4Error`, the source's errors, `CancellationError`.
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
    public nonisolated func images(at times: [ThumbnailTime]) -> AsyncStream<TimedResult> {
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
    public nonisolated func representations(at time: ThumbnailTime? = nil) -> AsyncThrowingStream<Thumbnail, any Error> {
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

    /// The cover art as a thumbnail, without fetching a sample; nil when the file has none.
    public func coverArt() async throws -> Thumbnail? {
        let start = await totals
        let movie = try await loadMovie()
        guard let art = movie.artwork.first(where: { $0.format == .png || $0.format == .jpeg }) else { return nil }
        var timings = Thumbnail.Timings()
        let watch = Stopwatch()
        let image = try CoverArtRenderer.render(art, options: options)
        timings.renderMilliseconds = watch.milliseconds
        let (encoded, placeholder) = try encode(image, timings: &timings)
        let end = await totals
        return Thumbnail(image: image, encoded: encoded, placeholder: placeholder, requestedTime: 0, actualTime: 0,
                         keyframeTime: 0, isSyncSample: false, orientation: .identity, isCoverArt: true, decodedSamples: 0,
                         bytesFetched: end.bytes - start.bytes, requests: end.requests - start.requests, timings: timings)
    }

    private func quickRepresentation(at time: ThumbnailTime?) async throws -> Thumbnail? {
        if options.allowsCoverArt, let art = try await coverArt() { return art }
        if options.isExact || time.map({ if case .frame = $0 { return true } else { return false } }) == true {
            var quick = options
            quick.requestedTimeToleranceBefore = .infinity
            quick.requestedTimeToleranceAfter = .infinity
            return try await make(at: time, options: quick)
        }
        return nil
    }

    // MARK: - Making one thumbnail

    /// Makes one thumbnail; a `ThumbnailError` thrown on the way gets this input and the time asked for.
    private func make(at time: ThumbnailTime?, options: ThumbnailOptions) async throws -> Thumbnail {
        do {
            try options.validate()  // the time is checked where it is resolved
            var thumbnail = try await makeUnlocated(at: time, options: options)
            thumbnail.sourceVersion = await KnownVersion(of: source)
            return thumbnail
        } catch let error as ThumbnailError {
            throw error.located(input: source.inputName, time: time.flatMap(\.seconds))
        }
    }

    private func makeUnlocated(at time: ThumbnailTime?, options: ThumbnailOptions) async throws -> Thumbnail {
        let start = await totals
        var timings = Thumbnail.Timings()
        let indexWatch = Stopwatch()
        let hadIndex = movie != nil
        var movie = try await loadMovie()
        if case .frame = time, movie.hasUnreadFragments {  // frame numbers count every sample before
            movie = try await readingFragments(Array(movie.fragmentIndex?.subsegments.indices ?? 0..<0), of: movie)
        }
        var track = try movie.thumbnailTrack()
        let (requested, selection) = try ThumbnailTime.resolve(time, in: movie, track: track, selection: options.selection)
        var readIndex = !hadIndex
        if let held = heldSubsegment(of: movie) {  // no read: its samples show how the index's times sit
            movie = try await readingFragments([held], of: movie)
            track = try movie.thumbnailTrack()
        }
        // At most three reads: where the index places the time, then what the samples read show is missing.
        for _ in 0..<3 {
            guard let wanted = movie.subsegments(around: requested) else { break }
            movie = try await readingFragments(wanted, of: movie)
            track = try movie.thumbnailTrack()
            readIndex = true
        }
        if readIndex { timings.indexMilliseconds = indexWatch.milliseconds }
        var plan = try FramePlanner.plan(track: track, time: requested, selection: selection, limits: options.limits)
        if let earlier = movie.subsegmentsBefore(plan) {  // a leading picture of the first keyframe read
            movie = try await readingFragments(earlier, of: movie)
            track = try movie.thumbnailTrack()
            plan = try FramePlanner.plan(track: track, time: requested, selection: selection, limits: options.limits)
        }
        // Everything that holds this thumbnail's pictures runs holding one permit, given back once they are gone.
        var permit = PicturePermit(limits?.decodes)
        let made: Picture
        do {
            made = try await picture(plan: plan, movie: movie, track: track, selection: selection, options: options,
                                     permit: &permit, timings: &timings)
        } catch {
            await permit.giveBack()
            throw error
        }
        await permit.giveBack()
        (plan, track) = (made.plan, made.track)
        let (image, encoded, placeholder) = (made.image, made.encoded, made.placeholder)
        let end = await totals
        let scale = Double(track.timescale)
        return Thumbnail(image: image, encoded: encoded, placeholder: placeholder, requestedTime: Double(requested) / scale,
                         actualTime: Double(plan.targetPresentationTime) / scale,
                         keyframeTime: Double(plan.keyframePresentationTime) / scale, isSyncSample: plan.target.isSync,
                         orientation: options.appliesPreferredTrackTransform ? (track.orientation ?? .identity) : .identity,
                         isCoverArt: false, decodedSamples: plan.samples.count,
                         bytesFetched: end.bytes - start.bytes, requests: end.requests - start.requests, timings: timings)
    }

    /// What the picture stage made: the thumbnail's image, its file and placeholder, and the plan and track of the
    /// frame shown (a later keyframe's when dark frames are skipped).
    private struct Picture {
        var image: RGBImage
        var encoded: [UInt8]
        var placeholder: ThumbHash?
        var plan: FramePlan
        var track: Track
    }

    /// Decodes `plan`'s frame (or, skipping dark frames, a later keyframe's), renders and encodes it, holding `permit`
    /// from before the decoder is made: the frames and the decoder are gone when this returns. When the decoder fails
    /// on a sample, the nearest frame before it inside `selection`'s window is shown instead
    /// (`FramePlanner.fallback(for:failedAt:in:selection:limits:)`), its time the actual time; with none, the
    /// decoder's error (naming the sample and why) is thrown.
    private func picture(plan: FramePlan, movie: Movie, track: Track, selection: FrameSelection, options: ThumbnailOptions,
                         permit: inout PicturePermit, timings: inout Thumbnail.Timings) async throws -> Picture {
        var (plan, movie, track) = (plan, movie, track)
        var frame: DecodedFrame
        do {
            frame = try await decode(plan, track: track, permit: &permit, timings: &timings)
        } catch let error as DecodeError {
            guard let failed = error.sampleIndex,
                  let fallback = try FramePlanner.fallback(for: plan, failedAt: failed, in: track, selection: selection,
                                                           limits: options.limits) else { throw error }
            plan = fallback
            frame = try await decode(plan, track: track, permit: &permit, timings: &timings)
        }
        if options.skipsDarkFrames {
            var attempts = 0
            while attempts < 8, DarkFrameDetector.isDarkOrFlat(frame) {
                if let following = movie.subsegment(after: plan.target) {
                    movie = try await readingFragments([following], of: movie)
                    track = try movie.thumbnailTrack()
                }
                guard let next = try nextKeyframe(after: plan.targetPresentationTime, in: track) else { break }
                attempts += 1
                plan = try FramePlanner.plan(track: track, time: track.presentationTime(of: next), selection: .nearestKeyframe,
                                             limits: options.limits)
                frame = try await decode(plan, track: track, permit: &permit, timings: &timings)
            }
        }
        try Task.checkCancellation()
        let renderWatch = Stopwatch()
        let image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: options))
        timings.renderMilliseconds = renderWatch.milliseconds
        let (encoded, placeholder) = try encode(image, timings: &timings)
        return Picture(image: image, encoded: encoded, placeholder: placeholder, plan: plan, track: track)
    }

    /// `image` in `options.format` (nothing when it is nil) and, with `makesPlaceholder`, its ThumbHash; the time
    /// both took in `timings`.
    private func encode(_ image: RGBImage, timings: inout Thumbnail.Timings) throws -> ([UInt8], ThumbHash?) {
        let watch = Stopwatch()
        let encoded = try options.format?.encode(image) ?? []
        let placeholder = options.makesPlaceholder ? try ThumbHash(image: image) : nil
        timings.encodeMilliseconds = watch.milliseconds
        return (encoded, placeholder)
    }

    /// Decodes `plan` batch by batch: each batch's bytes come from the sample cache or one fetch, and are held by
    /// this decode until it moves on, so nothing another call does to the cache can take them away. `permit` is
    /// taken before the decoder is made; a keyframe alone is fetched before that (its bytes are one sample, and a
    /// request waiting for a permit should not also wait for the network), a run of frames after.
    ///
    /// Without shared limits the decoder is kept for the next time. It is taken out while this plan uses it (calls
    /// on this actor interleave at every `await`): a concurrent call makes its own, and the one that finishes last
    /// is kept. Within shared limits none is kept: what holds pictures lives only while a permit is held.
    private func decode(_ plan: FramePlan, track: Track, permit: inout PicturePermit,
                        timings: inout Thumbnail.Timings) async throws -> DecodedFrame {
        try DecodeSession.checkSampleSizes(of: plan, limits: options.limits)
        var prefetched: [Int: [UInt8]] = [:]
        if plan.isKeyframeOnly, !permit.isHeld {
            let watch = Stopwatch()
            prefetched = try await bytes(of: plan.samples[...])
            timings.fetchMilliseconds += watch.milliseconds
        }
        try await permit.take()
        let descriptionIndex = plan.samples.first?.descriptionIndex ?? 1
        let decoder: any VideoDecoder
        let forKeyframes: Bool
        if let kept = self.decoder, decoderDescriptionIndex == descriptionIndex, !decoderIsForKeyframes || plan.isKeyframeOnly {
            self.decoder = nil
            try kept.reset()
            decoder = kept
            forKeyframes = decoderIsForKeyframes
        } else {
            decoder = try DecodeSession.makeDecoder(for: track, plan: plan, limits: options.limits, threading: .single)
            forKeyframes = plan.isKeyframeOnly
        }
        var session = try DecodeSession(plan: plan, decoder: decoder, limits: options.limits)
        let picture = try await session.run { batch in
            if batch.allSatisfy({ prefetched[$0.index] != nil }) { return prefetched }
            return try await bytes(of: batch)
        }
        timings.fetchMilliseconds += session.fetchMilliseconds
        timings.decodeMilliseconds += session.decodeMilliseconds
        if limits == nil {
            self.decoder = decoder
            decoderDescriptionIndex = descriptionIndex
            decoderIsForKeyframes = forKeyframes
        }
        return picture
    }

    /// The bytes of `samples`: kept ones from the cache, the rest fetched (and kept for later times).
    private func bytes(of samples: ArraySlice<Sample>) async throws -> [Int: [UInt8]] {
        var bytes: [Int: [UInt8]] = [:]
        var missing: [Sample] = []
        for sample in samples {
            if let kept = sampleCache.bytes(of: sample) { bytes[sample.index] = kept } else { missing.append(sample) }
        }
        guard !missing.isEmpty else { return bytes }
        let source = self.source
        let wanted = missing
        let held = heldBytes
        let fetched = try await limited(limits?.fetches) {
            try await SampleFetcher.fetch(wanted, from: source, held: held, maximumGap: source.coalescingGap)
        }
        for sample in wanted {
            guard let data = fetched[sample.index] else { continue }
            bytes[sample.index] = data
            sampleCache.insert(data, of: sample)
        }
        return bytes
    }

    /// `movie` with the moofs of `subsegments` read too (from the bytes held since locating where they are there),
    /// kept for later times when it has more of them than the movie kept now (calls interleave at the read). The
    /// media bytes the reads brought past a few moofs are held too: a keyframe starts there.
    private func readingFragments(_ subsegments: [Int], of movie: Movie) async throws -> Movie {
        let read = try await locator.readingFragments(subsegments, of: movie, in: source, held: heldBytes)
        if read.movie.readSubsegments.count > self.movie?.readSubsegments.count ?? 0 { self.movie = read.movie }
        if !indexBytes.spans.isEmpty {  // a whole index read here, now with more of its moofs
            for span in read.indexBytes.spans { indexBytes.insert(span.bytes, at: span.offset) }
        }
        if read.heldBytes.byteCount <= Self.heldFragmentBytes {
            for span in read.heldBytes.spans { heldBytes.insert(span.bytes, at: span.offset) }
        }
        return read.movie
    }

    /// The first subsegment, when none is read yet and its moof is in the bytes held since locating (the head):
    /// it costs no read, and its samples show how the index's times sit on the track's.
    private func heldSubsegment(of movie: Movie) -> Int? {
        guard movie.readSubsegments.isEmpty, let first = movie.fragmentIndex?.subsegments.first else { return nil }
        let probe = min(max(64, locator.options.fragmentProbeSize), UInt64(first.byteRange.count))
        let range = first.byteRange.lowerBound..<first.byteRange.lowerBound + probe
        return heldBytes.prefix(of: range).count == range.count ? 0 : nil
    }

    /// Most media bytes from one read of fragments kept (those of a few subsegments' probes, not of all).
    private static let heldFragmentBytes = 256 * 1024

    /// Runs `body` within `limiter`, if there is one.
    private func limited<T: Sendable>(_ limiter: AsyncLimiter?, _ body: @Sendable () async throws -> T) async throws -> T {
        guard let limiter else { return try await body() }
        return try await limiter.run(body)
    }

    /// The first sync sample shown after `time`.
    private func nextKeyframe(after time: Int64, in track: Track) throws -> Sample? {
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
