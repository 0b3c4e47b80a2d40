import ByteSources
import FrameDecode
import MP4Box

/// One movie being read: its bytes, its index, what was read on the way that later pictures can use, and the
/// decoders kept between pictures. Thumbnails (`ThumbnailGenerator`), exact frames (`FrameExtractor`), animated
/// previews (`AnimatedPreviewMaker`) and storyboards (`StoryboardMaker`) read a movie through one: give them the
/// same session and the index is read once, a sample fetched for one picture serves the next, and a decoder made
/// for one is reset for the next.
///
/// What one call cost is measured by that call (`Thumbnail.bytesFetched`, `FetchMeter`), exactly, while other calls
/// read the same session; `statistics` is what the whole session cost.
public actor MovieSession {
    /// The movie's bytes; every read is counted (by the source itself where it counts, as HTTP does, else here).
    public nonisolated let source: any ByteSource
    /// How the index is found.
    public nonisolated let locator: MovieLocator
    /// Bounds on concurrent fetches and pictures shared with other work (a `ThumbnailService`'s); nil: none. Within
    /// them the session keeps no decoder between pictures, so memory stays within the bounds.
    public nonisolated let workLimits: ThumbnailWorkLimits?
    /// The decoders kept between pictures.
    package nonisolated let decoders: DecoderPool
    /// Whether the movie was given at `init` (an index kept from before) rather than located by this session.
    public nonisolated let indexWasGiven: Bool
    private var movie: Movie?
    /// Media bytes read while locating the index or its fragments (a keyframe in the head of a short file costs no
    /// further read).
    package private(set) var heldBytes: HeldBytes
    /// The bytes of the index boxes: those this session read (`MovieLocator.Result.indexBytes`), or of the kept
    /// index it started from (`MovieIndexDirectory`'s), with the moofs read on demand since; empty for a movie given
    /// without them. What a store on disk keeps.
    public private(set) var indexBytes: HeldBytes
    /// What locating the index read, as the locator asked for it (the bytes and reads it used, the same from a file as
    /// from a URL, whatever the transport sent besides); nil when the index was given.
    public private(set) var locatingCost: (bytesRead: Int, reads: Int)?
    /// Sample bytes fetched by earlier pictures.
    private var sampleCache: SampleByteCache

    /// A session for the movie in `source`; pass `movie` when its index is already known (from a cache) and
    /// `heldBytes` when bytes read with it are at hand. Up to `sampleCacheBytes` of fetched samples are kept for
    /// later pictures; `workLimits` shares bounds with other work (without them, up to one idle decoder per core is
    /// kept between pictures). The default `locator` reads a fragmented movie's moofs on demand: a picture reads the
    /// ones its time needs.
    public init(source: any ByteSource, movie: Movie? = nil, heldBytes: HeldBytes = HeldBytes(),
                sampleCacheBytes: Int = ThumbnailLimits().sampleCacheBytes, workLimits: ThumbnailWorkLimits? = nil,
                locator: MovieLocator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand))) {
        self.init(source: source, movie: movie, heldBytes: heldBytes, indexBytes: HeldBytes(), sampleCacheBytes: sampleCacheBytes,
                  workLimits: workLimits, locator: locator)
    }

    /// A session that starts from `index`, kept from before (nil: the movie is located on first use); the moofs it
    /// reads on demand are added to the index's bytes, for keeping it again.
    init(source: any ByteSource, index: MovieIndexEntry?, sampleCacheBytes: Int, workLimits: ThumbnailWorkLimits?,
         locator: MovieLocator) {
        self.init(source: source, movie: index?.movie, heldBytes: HeldBytes(), indexBytes: index?.indexBytes ?? HeldBytes(),
                  sampleCacheBytes: sampleCacheBytes, workLimits: workLimits, locator: locator)
    }

    private init(source: any ByteSource, movie: Movie?, heldBytes: HeldBytes, indexBytes: HeldBytes, sampleCacheBytes: Int,
                 workLimits: ThumbnailWorkLimits?, locator: MovieLocator) {
        self.source = source is CountingByteSource ? source : CountingByteSource(source)
        self.movie = movie
        indexWasGiven = movie != nil
        self.heldBytes = heldBytes
        self.indexBytes = indexBytes
        self.workLimits = workLimits
        self.locator = locator
        sampleCache = SampleByteCache(capacity: sampleCacheBytes)
        decoders = DecoderPool(maximumIdle: workLimits == nil ? max(1, ProcessInfoCores.active) : 0)
    }

    /// A session for a local file.
    /// - Throws: `ReadError` when the file cannot be opened.
    public init(path: String) throws {
        self.init(source: try FileByteSource(path: path))
    }

    /// A session for `input` (a file, an `HTTPInput` from `RangeFetch`, your own).
    /// - Throws: what opening the input throws.
    public init(input: any MovieInput) throws {
        self.init(source: try input.open(known: nil))
    }

    /// The path or URL the movie is read from, for messages.
    public nonisolated var inputName: String? { source.inputName }

    /// What reading the movie has cost so far, by every call (the source's own statistics where it keeps them: for
    /// HTTP, every request and body byte on the wire).
    public nonisolated var statistics: FetchStats {
        get async { await source.statistics ?? FetchStats() }
    }

    /// Whether the movie is located (or was given).
    package var hasMovie: Bool { movie != nil }

    /// The movie, located and parsed on first use. With a locator that reads fragments on demand (the default), a
    /// fragmented movie whose video track has a segment index holds the fragments read so far
    /// (`Movie.hasUnreadFragments`, `Movie.readSubsegments`).
    ///
    /// Calls that come while the movie is being located wait for that one locating (its reads count for the call
    /// that started it). When that call is cancelled, locating stops, and a waiting call that is not cancelled
    /// starts it again.
    /// - Throws: `MP4Error`, or the source's errors; `CancellationError` when this call is cancelled.
    public func loadMovie() async throws -> Movie {
        while true {
            if let movie { return movie }
            let (task, started) = locating.map { ($0, false) } ?? startLocating()
            do {
                // The call that started the locating cancels it with itself; one that waits for it only stops waiting.
                let located = started
                    ? try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
                    : try await cancellableValue(of: task)
                if movie == nil {
                    movie = located.movie
                    heldBytes = located.heldBytes
                    indexBytes = located.indexBytes
                    locatingCost = (located.bytesRead, located.reads.count)
                }
                if locating == task { locating = nil }
            } catch {
                if locating == task { locating = nil }
                // The call that started it was cancelled (whatever its reads threw then), not this one: start again.
                guard !started, task.isCancelled, !Task.isCancelled else { throw error }
            }
        }
    }

    /// Locating under way, for the calls that come meanwhile.
    private var locating: Task<MovieLocator.Result, any Error>?

    private func startLocating() -> (Task<MovieLocator.Result, any Error>, Bool) {
        let (locator, source) = (self.locator, self.source)
        let task = Task { try await locator.locate(in: source) }
        locating = task
        return (task, true)
    }

    /// The movie with every fragment read, for work that needs every sample (frame numbers, storyboards, a summary):
    /// `loadMovie()`, then the moofs a locator reading them on demand left.
    /// - Throws: `MP4Error`, or the source's errors.
    public func loadCompleteMovie() async throws -> Movie {
        let movie = try await loadMovie()
        guard movie.hasUnreadFragments else { return movie }
        return try await readingFragments(Array(movie.fragmentIndex?.subsegments.indices ?? 0..<0), of: movie)
    }

    /// The index as a `MovieIndexStore` should keep it after this session's work: the one it located, or `kept`
    /// (the one it started from) with the fragments it read since; nil when there is nothing new to keep.
    func entryToKeep(replacing kept: MovieIndexEntry?) async -> MovieIndexEntry? {
        guard let movie else { return nil }
        guard let kept else {
            let fragmentsOnDemand = if case .onDemand = locator.options.fragmentReading { true } else { false }
            return MovieIndexEntry(movie: movie, known: await KnownVersion(of: source), indexBytes: indexBytes,
                                   fragmentsOnDemand: fragmentsOnDemand)
        }
        guard movie.readSubsegments.count > kept.movie?.readSubsegments.count ?? 0 else { return nil }
        return MovieIndexEntry(movie: movie, known: kept.known, indexBytes: indexBytes, fragmentsOnDemand: kept.fragmentsOnDemand)
    }

    // MARK: - Fragments

    /// `movie` with the moofs of `subsegments` read too (from the bytes held since locating where they are there),
    /// kept for later pictures when it has more of them than the movie kept now (calls interleave at the read). The
    /// media bytes the reads brought past a few moofs are held too: a keyframe starts there.
    package func readingFragments(_ subsegments: [Int], of movie: Movie) async throws -> Movie {
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
    package func heldSubsegment(of movie: Movie) -> Int? {
        guard movie.readSubsegments.isEmpty, let first = movie.fragmentIndex?.subsegments.first else { return nil }
        let probe = min(max(64, locator.options.fragmentProbeSize), UInt64(first.byteRange.count))
        let range = first.byteRange.lowerBound..<first.byteRange.lowerBound + probe
        return heldBytes.prefix(of: range).count == range.count ? 0 : nil
    }

    /// Most media bytes from one read of fragments kept (those of a few subsegments' probes, not of all).
    private static let heldFragmentBytes = 256 * 1024

    // MARK: - Samples

    /// The bytes of `samples`: kept ones from the sample cache, the rest fetched (`SampleFetcher`: ranges closer
    /// than `maximumGap`, default the source's coalescing gap, in one read; bytes held since locating taken from
    /// there) within the shared fetch bound, and kept for later pictures when `keeping` (a run of keyframes each
    /// read once, as a storyboard's, is not kept).
    /// - Throws: `ThumbnailError` `sampleOutOfRange` when a read comes back short; the source's errors.
    package func bytes(of samples: some Collection<Sample>, maximumGap: UInt64? = nil,
                       keeping: Bool = true) async throws -> [Int: [UInt8]] {
        var bytes: [Int: [UInt8]] = [:]
        var missing: [Sample] = []
        for sample in samples {
            if let kept = sampleCache.bytes(of: sample) { bytes[sample.index] = kept } else { missing.append(sample) }
        }
        guard !missing.isEmpty else { return bytes }
        let (source, wanted, held) = (self.source, missing, heldBytes)
        let gap = maximumGap ?? source.coalescingGap
        let fetch = { @Sendable in try await SampleFetcher.fetch(wanted, from: source, held: held, maximumGap: gap) }
        let fetched: [Int: [UInt8]]
        if let workLimits { fetched = try await workLimits.fetches.run(fetch) } else { fetched = try await fetch() }
        for sample in wanted {
            guard let data = fetched[sample.index] else { continue }
            bytes[sample.index] = data
            if keeping { sampleCache.insert(data, of: sample) }
        }
        return bytes
    }

    // MARK: - Pictures

    /// A decoded picture, the samples asked for (again after a restart from the keyframe), and the time their
    /// fetches and the decoding took.
    package struct DecodedPicture {
        package var frame: DecodedFrame
        package var samplesAskedFor: Int
        package var fetchTime: Duration
        package var decodeTime: Duration
    }

    /// Decodes `plan` of `track` batch by batch (`DecodeSession`): each batch's bytes from `bytes(of:keeping:)`, held
    /// by this decode until it moves on, so nothing another call does to the cache can take them away; a decoder
    /// from `decoders`, given back after. `permit` is taken before the decoder is made: a keyframe alone is fetched
    /// before that (its bytes are one sample, and a request waiting for a permit should not also wait for the
    /// network), a run of frames after. `onPicture` gets every picture the run gives, the decoder's last ones too.
    /// Runs in the caller's task, not on the session, so pictures of one session decode side by side.
    /// - Throws: `DecodeError`; `ThumbnailError` (`limitExceeded`, `noFrame`, `sampleOutOfRange`); the source's
    ///   errors; `CancellationError`.
    package nonisolated func decode(_ plan: FramePlan, of track: MovieTrack, limits: ThumbnailLimits,
                                    threading: VideoDecoderFactory.Threading? = nil, maximumGap: UInt64? = nil,
                                    keepingSamples: Bool = true, permit: inout PicturePermit, alphaTrack: MovieTrack? = nil,
                                    onPicture: ((DecodedFrame) throws -> Void)? = nil) async throws -> DecodedPicture {
        try DecodeSession.checkSampleSizes(of: plan, limits: limits)
        var prefetched: [Int: [UInt8]] = [:]
        var fetchTime = Duration.zero
        var asked = 0
        if plan.isKeyframeOnly, !permit.isHeld {
            let watch = Stopwatch()
            prefetched = try await bytes(of: plan.samples, maximumGap: maximumGap, keeping: keepingSamples)
            fetchTime += watch.elapsed
            asked += plan.samples.count
        }
        try await permit.take()
        let lease = try decoders.take(for: plan, of: track, threading: threading, limits: limits.decoderLimits)
        defer { decoders.giveBack(lease) }
        var session = try DecodeSession(plan: plan, decoder: lease.decoder, limits: limits)
        session.onPicture = onPicture
        let frame = try await session.run { batch in
            if batch.allSatisfy({ prefetched[$0.index] != nil }) { return prefetched }
            asked += batch.count
            return try await self.bytes(of: batch, maximumGap: maximumGap, keeping: keepingSamples)
        }
        if onPicture != nil { try session.drain() }
        var picture = DecodedPicture(frame: frame, samplesAskedFor: asked, fetchTime: fetchTime + session.fetchTime,
                                     decodeTime: session.decodeTime)
        if let alphaTrack {
            do {
                try await decodeAlpha(of: &picture, plan: plan, in: alphaTrack, limits: limits, maximumGap: maximumGap,
                                      keepingSamples: keepingSamples)
            } catch is DecodeError {
                // An alpha plane the decoder refuses (a damaged BlockAddition) leaves the picture opaque, as a player
                // that ignores alpha shows it.
            }
        }
        return picture
    }

    /// Adds the alpha plane to `picture` of `plan`: the same samples of `alphaTrack` (`Movie.alphaTrack(of:)`), decoded
    /// as pictures of their own, their luma the alpha (kept only at the picture's size and bit depth).
    private nonisolated func decodeAlpha(of picture: inout DecodedPicture, plan: FramePlan, in alphaTrack: MovieTrack,
                                         limits: ThumbnailLimits, maximumGap: UInt64?, keepingSamples: Bool) async throws {
        var alphaPlan = plan
        alphaPlan.samples = try plan.samples.map { try alphaTrack.samples.sample(at: $0.index) }
        alphaPlan.target = try alphaTrack.samples.sample(at: plan.target.index)
        let lease = try decoders.take(for: alphaPlan, of: alphaTrack, threading: .single, limits: limits.decoderLimits)
        defer { decoders.giveBack(lease) }
        var session = try DecodeSession(plan: alphaPlan, decoder: lease.decoder, limits: limits)
        let frame = try await session.run { batch in
            picture.samplesAskedFor += batch.count
            return try await self.bytes(of: batch, maximumGap: maximumGap, keeping: keepingSamples)
        }
        picture.fetchTime += session.fetchTime
        picture.decodeTime += session.decodeTime
        guard let luma = frame.planes.first, luma.width == picture.frame.width, luma.height == picture.frame.height,
              frame.bitDepth == picture.frame.bitDepth else { return }
        picture.frame.alpha = luma
    }
}
