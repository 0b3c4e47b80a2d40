import FrameDecode
import MP4Box

/// An animated preview being put together: the plans of one movie, or of each segment of a stream in turn, decoded
/// run by run, the pictures the preview shows rendered as the decoder gives them and added to one WebP animation as
/// soon as they and those before them are ready. Memory holds the pictures of one run, small, not the whole preview.
struct AnimationAssembly {
    let options: AnimatedPreviewOptions
    private var thumbnailOptions: ThumbnailOptions
    private var canvas: PixelSize?
    private var encoder: AnimatedWebPEncoder?
    /// The frames added, each with the time it shows, its duration set by the next one (or the end).
    private var frames: [AnimatedPreview.Frame] = []
    private var samplesDecoded = 0
    private var samplesFetched = 0

    init(options: AnimatedPreviewOptions) {
        self.options = options
        thumbnailOptions = ThumbnailOptions()
        thumbnailOptions.maximumSize = PixelSize(width: options.width, height: 0)
        thumbnailOptions.appliesPreferredTrackTransform = options.appliesPreferredTrackTransform
    }

    /// Decodes `plan`'s runs of `track` through `session` and adds its frames, after those added before, their source
    /// times moved by `sourceTimeOffset` ticks of the track (a segment's movie time to the stream's).
    /// - Throws: `ThumbnailError` (`noFrame` when the decoder gives no picture for a frame, `limitExceeded`,
    ///   `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors, `CancellationError`.
    mutating func add(_ plan: AnimationPlan, of track: MovieTrack, in session: MovieSession, sourceTimeOffset: Int64 = 0) async throws {
        // Which frames show each sample, and the pictures rendered but not yet added to the animation.
        var uses: [Int: Int] = [:]
        for frame in plan.frames { uses[frame.sample.index, default: 0] += 1 }
        var pictures: [Int: RGBImage] = [:]
        var nextFrame = 0
        for run in plan.runs {
            try Task.checkCancellation()
            let canvas = canvas
            let thumbnailOptions = thumbnailOptions
            var rendered: PixelSize?
            let render = { (frame: DecodedFrame) throws in
                guard uses[frame.sampleIndex, default: 0] > 0, pictures[frame.sampleIndex] == nil else { return }
                var image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: thumbnailOptions))
                let size = canvas ?? rendered
                if let size, size != PixelSize(width: image.width, height: image.height) {
                    // A picture of another size (the stream changed resolution): fitted on black to the canvas.
                    var fitted = thumbnailOptions
                    fitted.maximumSize = size
                    fitted.fitMode = .pad
                    fitted.allowsUpscaling = true
                    image = try Renderer.render(frame, options: RenderOptions(track: track, frame: frame, thumbnailOptions: fitted))
                }
                if size == nil { rendered = PixelSize(width: image.width, height: image.height) }
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
            if self.canvas == nil { self.canvas = rendered }

            // Add every frame whose picture is here, in order.
            while nextFrame < plan.frames.count, let image = pictures[plan.frames[nextFrame].sample.index] {
                let frame = plan.frames[nextFrame]
                if encoder == nil {
                    encoder = try AnimatedWebPEncoder(width: image.width, height: image.height, quality: options.quality,
                                                      lossless: options.lossless)
                }
                // The animation starts with its first frame: one whose time is later (the span began in a segment the
                // playlist marks as missing) is shown from the start.
                let start = frames.isEmpty ? 0 : frame.startMilliseconds
                try encoder?.add(image, at: start)
                uses[frame.sample.index, default: 1] -= 1
                if uses[frame.sample.index] == 0 { pictures[frame.sample.index] = nil }
                let shown = frame.presentationTime.addingReportingOverflow(sourceTimeOffset)
                frames.append(AnimatedPreview.Frame(start: .milliseconds(start), duration: .zero,
                                                    sourceTime: MediaTime(value: shown.overflow ? frame.presentationTime : shown.partialValue,
                                                                          timescale: track.timescale),
                                                    sampleIndex: frame.sample.index, isSyncSample: frame.sample.isSync))
                nextFrame += 1
            }
        }
        guard nextFrame == plan.frames.count else {
            throw ThumbnailError(.noFrame, "the decoder gave no picture for a frame of the preview",
                                 sample: plan.frames[nextFrame].sample.index)
        }
    }

    /// The animation, its last frame shown until `durationMilliseconds`.
    /// - Throws: `ThumbnailError` `noFrame` when no frame was added, `encodingFailed`.
    func finish(durationMilliseconds: Int) throws -> AnimatedPreview {
        guard let encoder, let last = frames.last else {
            throw ThumbnailError(.noFrame, "the preview has no frame")
        }
        let end = max(durationMilliseconds, Int(last.start.milliseconds) + 1)
        let encoded = try encoder.finish(at: end)
        var timed = frames
        for index in timed.indices {
            let next = index + 1 < timed.count ? timed[index + 1].start : .milliseconds(end)
            timed[index].duration = next - timed[index].start
        }
        return AnimatedPreview(encoded: encoded, width: encoder.width, height: encoder.height, frames: timed,
                               duration: .milliseconds(end), samplesDecoded: samplesDecoded,
                               samplesFetched: samplesFetched, bytesFetched: 0, requests: 0)
    }
}
