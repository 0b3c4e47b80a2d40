import ByteSources
import FrameDecode
import MP4Box
import Thumbs

extension StoryboardMaker {
    /// A movie's keyframes (`StoryboardPlan`, from the complete index): read in runs of byte-adjacent samples
    /// (keyframes apart are asked for together where a request costs a round trip), at most
    /// `maximumConcurrentFetches` reads and `maximumConcurrentDecodes` decodes at once (within the session's
    /// `workLimits` too), each decoded once with a decoder of the session's pool (or of one kept while the storyboard
    /// holds its canvas, when the session keeps fewer) and rendered to a tile.
    func keyframes(of session: MovieSession) async throws -> StoryboardKeyframes<StoryboardPlan> {
        let movie = try await session.loadCompleteMovie()
        let track = try movie.thumbnailTrack()
        let plan = try StoryboardPlan(track: track, options: options)
        let tileSize = Self.tileSize(for: track, options: options)
        let render = renderOptions(for: track, tileSize: tileSize)
        let decodes = options.maximumConcurrentDecodes ?? max(1, ProcessInfoCores.active)
        let sharedLimits = session.workLimits
        let fetchLimiter = AsyncLimiter(limit: options.maximumConcurrentFetches)  // the session adds the shared one
        let decodeLimiters = [AsyncLimiter(limit: decodes)] + (sharedLimits.map { [$0.decodes] } ?? [])
        let pool = session.decoders.maximumIdle >= decodes ? session.decoders : DecoderPool(maximumIdle: decodes)
        let encodesTiles = options.singleImages || options.maximumSheetBytes != nil
        let (format, gap, keyframes) = (options.format, options.coalescingGap, plan.keyframes)
        let tiles: @Sendable (Range<Int>) async throws -> [(Int, StoryboardTile)] = { ordinals in
            let samples = ordinals.map { keyframes[$0].sample }
            let bytes = try await fetchLimiter.run {
                try await session.bytes(of: samples, maximumGap: gap, keeping: false)
            }
            try Task.checkCancellation()
            return try await AsyncLimiter.run(within: decodeLimiters) {
                var made: [(Int, StoryboardTile)] = []
                for ordinal in ordinals {
                    try Task.checkCancellation()
                    let keyframe = keyframes[ordinal]
                    let framePlan = FramePlan.keyframe(keyframe.sample, presentationTime: keyframe.presentationTime,
                                                       requestedTime: keyframe.presentationTime, timescale: track.timescale)
                    let lease = try pool.take(for: framePlan, of: track, threading: .single,
                                              limits: ThumbnailLimits().decoderLimits)
                    defer { pool.giveBack(lease) }
                    let frame = try DecodeSession.decode(framePlan, bytes: bytes, with: lease.decoder)
                    let image = try Renderer.render(frame, options: render)
                    let encoded = encodesTiles ? try format.encode(image) : nil
                    made.append((ordinal, StoryboardTile(
                        image: image, encoded: encoded,
                        keyframeTime: MediaTime(value: keyframe.presentationTime, timescale: track.timescale),
                        keyframeSample: keyframe.sample.index)))
                }
                return made
            }
        }
        return StoryboardKeyframes(
            plan: plan, tileSize: tileSize,
            groups: plan.fetchGroups(maximumGap: options.coalescingGap, joiningApart: session.source.coalescingGap > 0),
            groupsAtOnce: options.maximumConcurrentFetches + decodes, tiles: tiles, duration: plan.duration,
            interval: plan.interval, canvases: sharedLimits?.canvases, keyframeBytes: { plan.keyframeBytes })
    }

    /// The tile size for `track`: `tileWidth` by `tileHeight`, or by the width times the display aspect ratio
    /// (height / width, after the pixel aspect ratio and the orientation), rounded half up, at least 1.
    public static func tileSize(for track: MovieTrack, options: StoryboardOptions) -> PixelSize {
        if let height = options.tileHeight { return PixelSize(width: options.tileWidth, height: height) }
        var display = track.displaySize ?? (16, 9)
        if !options.appliesPreferredTrackTransform, track.orientation?.swapsDimensions == true {
            display = (display.height, display.width)
        }
        let width = Int64(options.tileWidth)
        let height = (2 * width * Int64(display.height) + Int64(display.width)) / (2 * Int64(display.width))
        return PixelSize(width: options.tileWidth, height: Int(min(max(1, height), 4096)))
    }

    /// Tiles are exactly `tileSize`: stretched when the height came from the aspect ratio (so off by at most half
    /// a pixel), fitted on black (`.pad`) when both sides were given; small videos are scaled up.
    private func renderOptions(for track: MovieTrack, tileSize: PixelSize) -> RenderOptions {
        var render = RenderOptions(track: track, maximumSize: tileSize, fitMode: options.tileHeight == nil ? .stretch : .pad)
        render.allowsUpscaling = true
        render.appliesOrientation = options.appliesPreferredTrackTransform
        return render
    }
}
