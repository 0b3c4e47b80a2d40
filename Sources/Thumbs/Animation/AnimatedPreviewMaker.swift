import ByteSources
import FrameDecode
import MP4Box

/// Makes an animated preview of a span of a movie, as an animated WebP (Mux's animated images, from range reads).
///
/// The pipeline: locate the index; plan the frames (`AnimationPlan`: keyframes where they are within half a frame's
/// time, else the frames on screen, decoded in one run per keyframe); fetch and decode each run once, rendering the
/// pictures the preview shows as the decoder gives them, and add each frame to libwebp's animation encoder as soon as
/// it and those before it are ready (`AnimationAssembly`). A stream's preview: `StreamAnimatedPreviewMaker`.
public struct AnimatedPreviewMaker: Sendable {
    /// The movie read.
    public let session: MovieSession
    /// What the preview looks like.
    public let options: AnimatedPreviewOptions

    /// A maker of previews of `session`'s movie.
    public init(session: MovieSession, options: AnimatedPreviewOptions = AnimatedPreviewOptions()) {
        self.session = session
        self.options = options
    }

    /// A maker for the movie in `source`, with a session of its own that finds the index with `locator`.
    public init(source: any ByteSource, options: AnimatedPreviewOptions = AnimatedPreviewOptions(), locator: MovieLocator = MovieLocator()) {
        self.init(session: MovieSession(source: source, sampleCacheBytes: 0, locator: locator), options: options)
    }

    /// Makes the preview; its `bytesFetched` and `requests` are what this call read (`FetchMeter`).
    /// - Throws: `ThumbnailError` (`invalidOption`, `noVideo`, `noSamples`, `noFrame`, `limitExceeded`,
    ///   `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors, `CancellationError`.
    public func make() async throws -> AnimatedPreview {
        try options.validate()
        let meter = FetchMeter()
        var preview = try await meter.measure { try await makeUnmeasured() }
        preview.count(meter.statistics)
        return preview
    }

    private func makeUnmeasured() async throws -> AnimatedPreview {
        let movie = try await session.loadCompleteMovie()
        let track = try movie.thumbnailTrack()
        let (plan, duration) = try AnimationPlan.movie(track: track, options: options)
        var assembly = AnimationAssembly(options: options)
        try await assembly.add(plan, of: track, in: session)
        return try assembly.finish(durationMilliseconds: duration)
    }
}
