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
        let plan = try AnimationPlan(track: track, options: options)
        var thumbnailOptions = ThumbnailOptions()
        thumbnailOptions.maximumSize = PixelSize(width: options.width, height: 0)
        thumbnailOptions.appliesPreferredTrackTransform = options.appliesPreferredTrackTransform

        // Which frames show each sample, and the pictures rendered but not yet added to the animation.
        var uses: [Int: Int] = [:]
        for frame in plan.frames { uses[frame.sample.index, default: 0] += 1 }
        var pictures: [Int: RGBImage] = [:]
        var canvas: PixelSize?
        var encoder: AnimatedWebPEncoder?
        var nextFrame = 0
        var samplesDecoded = 0
        var samplesFetched = 0

        for run in plan.runs {
            try Task.checkCancellation()
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
            // Each run is read once: its samples are not kept for later runs. Within shared limits, a run's decoder
            // and pictures hold one of their places.
            var permit = PicturePermit(session.workLimits?.decodes)
            do {
                let picture = try await session.decode(run, of: track, limits: options.limits, maximumGap: options.coalescingGap,
                                                       keepingSamples: false, permit: &permit, onPicture: render)
                samplesFetched += picture.samplesAskedFor
            } catch {
                await permit.giveBack()
                throw error
            }
            await permit.giveBack()
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
        let frames = plan.frames.enumerated().map { index, frame in
            let next = index + 1 < plan.frames.count ? plan.frames[index + 1].startMilliseconds : plan.durationMilliseconds
            return AnimatedPreview.Frame(start: .milliseconds(frame.startMilliseconds),
                                         duration: .milliseconds(next - frame.startMilliseconds),
                                         sourceTime: MediaTime(value: frame.presentationTime, timescale: track.timescale),
                                         sampleIndex: frame.sample.index, isSyncSample: frame.sample.isSync)
        }
        return AnimatedPreview(encoded: encoded, width: encoder.width, height: encoder.height, frames: frames,
                               duration: .milliseconds(plan.durationMilliseconds), samplesDecoded: samplesDecoded,
                               samplesFetched: samplesFetched,
                               bytesFetched: 0, requests: 0)
    }
}
