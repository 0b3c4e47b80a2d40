import BoundedTasks
import FrameDecode
import MP4Box
import StreamManifests

/// Keyframes in, pictures out: the one way the jobs that show many keyframes of a `Media` (storyboards, the best
/// frame) read, decode and render them, a group at a time.
///
/// A group's keyframes are read together, then each is decoded once and rendered with `options` (its size, fit,
/// upscaling, aperture, turn and HDR; never encoded):
/// - of a movie, their samples in one read of byte ranges (`MovieSession.bytes(of:maximumGap:keeping:)`: ranges
///   closer than `maximumGap` joined, not kept in the session's cache), within `fetchLimiter` and the session's shared
///   fetch bound; then decoded side by side, at most `decodes` at once here and within the session's shared decode
///   bound, each with a decoder of the session's pool (or of this reader's own, when the session keeps fewer than
///   `decodes`);
/// - of a stream, the ranges an I-frame playlist lists in one resource prefetched together
///   (`StreamSession.prefetch(_:)`); then each keyframe placed (`StreamSeekMap.keyframePicture(startingSegment:of:)`)
///   and made as `ThumbnailGenerator` makes a stream's picture, one after the other (its own reading and decode are
///   the unit; a job runs several groups at once).
///
/// A keyframe that cannot be decoded (or, of a stream, read) gives its error in its place; a read of a movie's group
/// that fails, a sample larger than `ThumbnailLimits.maximumSampleSize` and cancellation end the whole group.
package struct KeyframePictures: Sendable {
    /// A keyframe's picture.
    package struct Picture: Sendable {
        /// Rendered as the options ask.
        package var image: RGBImage
        /// The keyframe's time: of a movie, its presentation time in the track's timescale; of a stream, on the
        /// stream's timeline.
        package var time: MediaTime
        /// Of a movie, the sample's bytes, for a decode again without a second read; nil of a stream.
        package var sampleBytes: [UInt8]?
    }

    /// A group's pictures, in the group's order, and the time its reads and its decodes took.
    package struct Group: Sendable {
        package var pictures: [Result<Picture, any Error>]
        package var fetchTime: Duration
        package var decodeTime: Duration
    }

    /// How a movie's keyframes are read.
    private struct MovieReading: Sendable {
        var session: MovieSession
        var track: MovieTrack
        var pool: DecoderPool
        var fetchLimiter: AsyncLimiter?
        var decodeLimiters: [AsyncLimiter]
        var maximumGap: UInt64?
    }

    /// The media read.
    package let media: Media
    /// How each picture is rendered.
    package let options: ThumbnailOptions
    /// Most decodes at once of a movie's group.
    package let decodes: Int
    private let movie: MovieReading?

    /// A reader of `media`'s keyframes: of a movie, those of `track` (its video track; nil of a stream), at most
    /// `decodes` decoded at once, reads within `fetchLimiter` (nil: none but the session's), samples closer than
    /// `maximumGap` read together (nil: the source's coalescing gap).
    package init(media: Media, track: MovieTrack?, options: ThumbnailOptions, decodes: Int,
                 fetchLimiter: AsyncLimiter? = nil, maximumGap: UInt64? = nil) {
        self.media = media
        self.options = options
        self.decodes = max(1, decodes)
        if case .movie(let session) = media, let track {
            let pool = session.decoders.maximumIdle >= self.decodes ? session.decoders : DecoderPool(maximumIdle: self.decodes)
            movie = MovieReading(session: session, track: track, pool: pool, fetchLimiter: fetchLimiter,
                                 decodeLimiters: [AsyncLimiter(limit: self.decodes)] + (session.workLimits.map { [$0.decodes] } ?? []),
                                 maximumGap: maximumGap)
        } else {
            movie = nil
        }
    }

    /// `work` (a picture's encoding, say) within the bounds a movie's decodes keep, so that what a job does with the
    /// pictures is bounded as their decodes are; of a stream, as it comes (its groups bound it).
    package func withinDecodeBounds<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        guard let movie else { return try work() }
        return try await AsyncLimiter.run(within: movie.decodeLimiters) { try work() }
    }

    /// The pictures of `keyframes`, read together.
    /// - Throws: `ThumbnailError` `limitExceeded` (a sample too large), `invalidOption` (a keyframe of the other kind
    ///   of media); a failed read of a movie's group; `CancellationError`.
    package func pictures(of keyframes: [MediaKeyframe]) async throws -> Group {
        switch media {
        case .movie:
            guard let movie else { throw ThumbnailError(.invalidOption, "a movie's keyframes need its video track") }
            return try await pictures(of: keyframes, in: movie)
        case .stream(let session):
            return try await pictures(of: keyframes, in: session)
        }
    }

    private func pictures(of keyframes: [MediaKeyframe], in movie: MovieReading) async throws -> Group {
        let (track, limits, options) = (movie.track, self.options.limits, self.options)
        let plans = try keyframes.map { keyframe in
            guard case .sample(let sample, let time) = keyframe else {
                throw ThumbnailError(.invalidOption, "a stream's keyframe asked of a movie")
            }
            let plan = FramePlan.keyframe(sample, presentationTime: time, requestedTime: time, timescale: track.timescale)
            try DecodeSession.checkSampleSizes(of: plan, limits: limits)
            return plan
        }
        let fetchWatch = Stopwatch()
        let (session, gap) = (movie.session, movie.maximumGap)
        let fetch = { @Sendable in try await session.bytes(of: plans.map(\.target), maximumGap: gap, keeping: false) }
        let bytes: [Int: [UInt8]]
        if let limiter = movie.fetchLimiter { bytes = try await limiter.run(fetch) } else { bytes = try await fetch() }
        let fetchTime = fetchWatch.elapsed
        try Task.checkCancellation()
        let decodeWatch = Stopwatch()
        let pictures = try await Self.results(count: plans.count, atMost: decodes) { position in
            try await AsyncLimiter.run(within: movie.decodeLimiters) {
                try Task.checkCancellation()
                let plan = plans[position]
                let lease = try movie.pool.take(for: plan, of: track, threading: .single, limits: limits.decoderLimits)
                defer { movie.pool.giveBack(lease) }
                let frame = try DecodeSession.decode(plan, bytes: bytes, with: lease.decoder, limits: limits)
                let image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: options))
                return Picture(image: image, time: MediaTime(value: plan.targetPresentationTime, timescale: track.timescale),
                               sampleBytes: bytes[plan.target.index])
            }
        }
        return Group(pictures: pictures, fetchTime: fetchTime, decodeTime: decodeWatch.elapsed)
    }

    private func pictures(of keyframes: [MediaKeyframe], in session: StreamSession) async throws -> Group {
        let segments = try keyframes.map { keyframe -> (StreamSegment, StreamRendition, Duration?) in
            switch keyframe {
            case .segment(let segment, let rendition): return (segment, rendition, nil)
            case .searched(let segment, let rendition, let time): return (segment, rendition, time)
            case .sample: throw ThumbnailError(.invalidOption, "a movie's keyframe asked of a stream")
            }
        }
        let fetchWatch = Stopwatch()
        if segments.count > 1 { try await session.prefetch(segments.map(\.0)) }
        let fetchTime = fetchWatch.elapsed
        let decodeWatch = Stopwatch()
        let (media, options) = (self.media, self.options)
        let pictures = try await Self.results(count: segments.count, atMost: 1) { position in
            let (segment, rendition, time) = segments[position]
            let seekMap = StreamSeekMap(session: session, options: options)
            let picture = if let time {
                try await seekMap.keyframePicture(nearest: time, in: segment, of: rendition)
            } else {
                try await seekMap.keyframePicture(startingSegment: segment, of: rendition)
            }
            let made = try await ThumbnailGenerator(media: media, options: options).image(of: picture, options: options)
            return Picture(image: made.image, time: made.keyframeMediaTime, sampleBytes: nil)
        }
        return Group(pictures: pictures, fetchTime: fetchTime, decodeTime: decodeWatch.elapsed)
    }

    /// `make(position)` for each position below `count`, at most `atMost` at once (`BoundedTaskGroup`); each one's
    /// picture or error, in position order. A `CancellationError` ends the whole.
    private static func results(count: Int, atMost: Int, _ make: @escaping @Sendable (Int) async throws -> Picture)
        async throws -> [Result<Picture, any Error>] {
        var results = [Result<Picture, any Error>](repeating: .failure(CancellationError()), count: count)
        try await BoundedTaskGroup.run(0..<count, atMost: atMost, { position in
            do {
                return (position, Result<Picture, any Error>.success(try await make(position)))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                return (position, .failure(error))
            }
        }) { made in
            results[made.0] = made.1
        }
        try Task.checkCancellation()
        return results
    }
}
