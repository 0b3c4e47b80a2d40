import ByteSources
import FrameDecode
import MP4Box

/// Makes an animated preview of a span of a movie, as an animated WebP (Mux's animated images, from range reads).
///
/// The pipeline: locate the index; plan the frames (`AnimationPlan`: keyframes where they are within half a frame's
/// time, else the frames on screen, decoded in one run per keyframe); fetch and decode each run once, rendering the
/// pictures the preview shows as the decoder gives them; add each frame to libwebp's animation encoder as soon as it
/// and those before it are ready, and drop it. Memory holds the pictures of one run, small, not the whole preview.
public struct AnimatedPreviewMaker: Sendable {
    /// The movie's bytes.
    public let source: any ByteSource
    /// What the preview looks like.
    public let options: AnimatedPreviewOptions

    /// How the index is found (when `make` is not given the movie).
    public let locator: MovieLocator

    /// A maker for the movie in `source`.
    public init(source: any ByteSource, options: AnimatedPreviewOptions = AnimatedPreviewOptions(), locator: MovieLocator = MovieLocator()) {
        self.source = source
        self.options = options
        self.locator = locator
    }

    /// Makes the preview (of `movie` when its index is at hand, else after locating it in `source`).
    /// - Throws: `ThumbnailError` (`invalidOption`, `noVideo`, `noSamples`, `noFrame`, `limitExceeded`,
    ///   `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors, `CancellationError`.
    public func make(movie: Movie? = nil) async throws -> AnimatedPreview {
        try options.validate()
        let metered = CountingByteSource(source)
        let located = try await locator.movie(movie, in: metered)
        let movie = located.movie
        let track = try movie.thumbnailTrack()
        let plan = try AnimationPlan(track: track, options: options)
        var thumbnailOptions = ThumbnailOptions()
        thumbnailOptions.maximumSize = PixelSize(width: options.width, height: 0)
        thumbnailOptions.appliesPreferredTrackTransform = options.appliesPreferredTrackTransform
        let gap = options.coalescingGap ?? source.coalescingGap

        // Which frames show each sample, and the pictures rendered but not yet added to the animation.
        var uses: [Int: Int] = [:]
        for frame in plan.frames { uses[frame.sample.index, default: 0] += 1 }
        var pictures: [Int: RGBImage] = [:]
        var canvas: PixelSize?
        var encoder: AnimatedWebPEncoder?
        var nextFrame = 0
        var decoder: (any VideoDecoder)?
        var decoderDescription: UInt32?
        var samplesDecoded = 0
        var samplesFetched = 0

        for run in plan.runs {
            try Task.checkCancellation()
            let description = run.samples.first?.descriptionIndex ?? 1
            let runDecoder: any VideoDecoder
            if let decoder, decoderDescription == description {
                try decoder.reset()
                runDecoder = decoder
            } else {
                runDecoder = try DecodeSession.makeDecoder(for: track, plan: run, limits: options.limits)
            }
            decoder = runDecoder
            decoderDescription = description
            let render = { (frame: DecodedFrame) throws in
                guard uses[frame.sampleIndex, default: 0] > 0, pictures[frame.sampleIndex] == nil else { return }
                var image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: thumbnailOptions))
                if let canvas, canvas != PixelSize(width: image.width, height: image.height) {
                    // A picture of another size (the stream changed resolution): fitted on black to the canvas.
                    var fitted = thumbnailOptions
                    fitted.maximumSize = canvas
                    fitted.fitMode = .pad
                    fitted.allowsUpscaling = true
                    image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: fitted))
                }
                if canvas == nil { canvas = PixelSize(width: image.width, height: image.height) }
                pictures[frame.sampleIndex] = image
            }
            var session = try DecodeSession(plan: run, decoder: runDecoder, limits: options.limits)
            session.onPicture = render
            _ = try await session.run { batch in
                samplesFetched += batch.count
                return try await SampleFetcher.fetch(Array(batch), from: metered, held: located.heldBytes, maximumGap: gap)
            }
            for frame in try runDecoder.flush() { try render(frame) }
            samplesDecoded += run.samples.count

            // Add every frame whose picture is here, in order.
            while nextFrame < plan.frames.count, let image = pictures[plan.frames[nextFrame].sample.index] {
                let frame = plan.frames[nextFrame]
                if encoder == nil {
                    encoder = try AnimatedWebPEncoder(width: image.width, height: image.height, quality: options.quality,
                                                      lossless: options.lossless)
                }
                try encoder?.add(image, at: frame.startMilliseconds)
                uses[frame.sample.index, default: 1] -= 1
                if uses[frame.sample.index] == 0 { pictures[frame.sample.index] = nil }
                nextFrame += 1
            }
        }
        guard nextFrame == plan.frames.count, let encoder else {
            let missing = plan.frames[min(nextFrame, plan.frames.count - 1)].sample.index
            throw ThumbnailError(.noFrame, "the decoder gave no picture for a frame of the preview", sample: missing)
        }
        let encoded = try encoder.finish(at: plan.durationMilliseconds)
        let scale = Double(track.timescale)
        let frames = plan.frames.enumerated().map { index, frame in
            let next = index + 1 < plan.frames.count ? plan.frames[index + 1].startMilliseconds : plan.durationMilliseconds
            return AnimatedPreview.Frame(startMilliseconds: frame.startMilliseconds,
                                         durationMilliseconds: next - frame.startMilliseconds,
                                         sourceTime: Double(frame.presentationTime) / scale, sampleIndex: frame.sample.index,
                                         isSyncSample: frame.sample.isSync)
        }
        let statistics = await metered.statistics
        return AnimatedPreview(encoded: encoded, width: encoder.width, height: encoder.height, frames: frames,
                               durationMilliseconds: plan.durationMilliseconds, samplesDecoded: samplesDecoded,
                               samplesFetched: samplesFetched,
                               bytesFetched: statistics?.bytes ?? 0, requests: statistics?.requests ?? 0)
    }
}
