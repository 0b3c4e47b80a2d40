import ByteSources
import FrameDecode
import MP4Box

/// Makes an animated preview of a span of a movie or a stream (`Media`), as an animated WebP (Mux's animated images,
/// from range reads): frame `k` is for `start + k / fps`, showing the keyframe within half a frame's time of it when
/// there is one, else the frame on screen then.
///
/// The pipeline: plan the frames (`AnimationPlan`: keyframes where they are within half a frame's time, else the
/// frames on screen, decoded in one run per keyframe); fetch and decode each run once, rendering the pictures the
/// preview shows as the decoder gives them, and add each frame to libwebp's animation encoder as soon as it and those
/// before it are ready (`AnimationAssembly`). Of a movie, from its complete index. Of a stream, on its timeline: the
/// span is cut where the segments (and periods) playing in it change, and each part is planned and decoded in its
/// segment's movie, one after the other, into one animation; the rendition is the smallest whose picture covers the
/// width, in each period.
public struct AnimatedPreviewMaker: Sendable {
    /// The movie or stream read.
    public let media: Media
    /// What the preview looks like.
    public let options: AnimatedPreviewOptions

    /// A maker of previews of `media`.
    public init(media: Media, options: AnimatedPreviewOptions = AnimatedPreviewOptions()) {
        self.media = media
        self.options = options
    }

    /// A maker for the movie in `source`, with a session of its own that finds the index with `locator`.
    public init(source: any ByteSource, options: AnimatedPreviewOptions = AnimatedPreviewOptions(), locator: MovieLocator = MovieLocator()) {
        self.init(media: .movie(MovieSession(source: source, sampleCacheBytes: 0, locator: locator)), options: options)
    }

    /// Makes the preview; its `bytesFetched` and `requests` are what this call read (`FetchMeter`). A stream's frames'
    /// source times are on the stream's timeline, and it names the renditions and segments they came from.
    /// - Throws: `ThumbnailError` (`invalidOption`, also for a start at or past a stream's end; `noVideo`, `noSamples`,
    ///   `noFrame`, `limitExceeded`, `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors; of a stream,
    ///   `ManifestError` and `TransportStreamError` too; `CancellationError`.
    public func make() async throws -> AnimatedPreview {
        try options.validate()
        let meter = FetchMeter()
        var made = try await meter.measure { () async throws -> AnimatedPreview in
            switch media {
            case .movie(let session): try await preview(of: session)
            case .stream(let session): try await preview(of: session)
            }
        }
        made.count(meter.statistics)
        return made
    }

    private func preview(of session: MovieSession) async throws -> AnimatedPreview {
        let movie = try await session.loadCompleteMovie()
        let track = try movie.thumbnailTrack()
        let (plan, duration) = try AnimationPlan.movie(track: track, options: options)
        var assembly = AnimationAssembly(options: options)
        try await assembly.add(plan, of: track, in: session)
        return try assembly.finish(durationMilliseconds: duration)
    }
}
