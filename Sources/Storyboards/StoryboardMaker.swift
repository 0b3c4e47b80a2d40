import BoundedTasks
import ByteSources
import FrameDecode
import MP4Box
import Thumbs

/// Makes a storyboard of a movie from its keyframes alone: sheets of tiles (or single images), in cue order.
///
/// The pipeline: locate the index; plan the cues and their distinct keyframes (`StoryboardPlan`); read the
/// keyframes in runs of byte-adjacent samples, at most `maximumConcurrentFetches` reads in flight; decode each
/// keyframe once, at most `maximumConcurrentDecodes` at a time with one decoder each (and within the session's
/// `workLimits`); render it to a tile; place the tiles in cue order and hand each finished sheet to the caller. Work
/// runs at most a bounded window of keyframes ahead of the next tile to place, so memory is one sheet plus the tiles in flight,
/// whatever the length of the video, and the output is the same whatever order the reads and decodes finish in.
public struct StoryboardMaker: Sendable {
    /// The movie read.
    public let session: MovieSession
    /// What the storyboard looks like.
    public let options: StoryboardOptions

    /// A maker of storyboards of `session`'s movie. Within the session's `workLimits` (a `ThumbnailService`'s, other
    /// storyboards'), each fetch and decode also waits for a place in them, and the storyboard holds one of their
    /// `canvases` while it fills its sheets, so a service's pictures at once stay within one bound however many
    /// storyboards and thumbnails it makes.
    public init(session: MovieSession, options: StoryboardOptions = StoryboardOptions()) {
        self.session = session
        self.options = options
    }

    /// A maker for the movie in `source`, with a session of its own that finds the index with `locator` and shares
    /// `sharedLimits` (nil: only this storyboard's own bounds from `options`).
    public init(source: any ByteSource, options: StoryboardOptions = StoryboardOptions(), locator: MovieLocator = MovieLocator(),
                sharedLimits: ThumbnailWorkLimits? = nil) {
        self.init(session: MovieSession(source: source, sampleCacheBytes: 0, workLimits: sharedLimits, locator: locator),
                  options: options)
    }

    /// Makes the storyboard. Each image file is passed to `write` (its file name and bytes) as soon as it is
    /// finished, in order; the returned value describes the cues and sheets (for `webVTT()` and `manifest`).
    /// `progress` is called after each keyframe is placed.
    /// - Throws: `StoryboardError` (`invalidOption`, `noSamples`, `noDuration`, `noKeyframe`); `ThumbnailError` (`noVideo`,
    ///   `noFrame`, `sampleOutOfRange`, `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors, whatever
    ///   `write` throws, `CancellationError`.
    public func make(progress: (@Sendable (StoryboardProgress) -> Void)? = nil,
                     write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        try options.validate()
        let meter = FetchMeter()
        return try await meter.measure { try await makeMeasured(by: meter, progress: progress, write: write) }
    }

    private func makeMeasured(by meter: FetchMeter, progress: (@Sendable (StoryboardProgress) -> Void)?,
                              write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        let watch = Stopwatch()
        let movie = try await session.loadCompleteMovie()
        let track = try movie.thumbnailTrack()
        let plan = try StoryboardPlan(track: track, options: options)
        let tileSize = Self.tileSize(for: track, options: options)
        var assembler = try Assembler(plan: plan, options: options, tileSize: tileSize)
        let render = renderOptions(for: track, tileSize: tileSize)
        // Where a request costs a round trip, keyframes apart are asked for together.
        let groups = plan.fetchGroups(maximumGap: options.coalescingGap, joiningApart: session.source.coalescingGap > 0)
        let decodes = options.maximumConcurrentDecodes ?? max(1, ProcessInfoCores.active)
        let sharedLimits = session.workLimits
        let fetchLimiter = AsyncLimiter(limit: options.maximumConcurrentFetches)  // the session adds the shared one
        let decodeLimiters = [AsyncLimiter(limit: decodes)] + (sharedLimits.map { [$0.decodes] } ?? [])
        // The session's decoders, or (when it keeps fewer than this storyboard decodes at once: within shared limits
        // it keeps none) ones kept while this storyboard holds its canvas.
        let pool = session.decoders.maximumIdle >= decodes ? session.decoders : DecoderPool(maximumIdle: decodes)
        let tasksInFlight = options.maximumConcurrentFetches + decodes
        let window = max(4 * tasksInFlight, 32)
        let encodesTiles = options.singleImages || options.maximumSheetBytes != nil
        let format = options.format
        let gap = options.coalescingGap
        let keyframes = plan.keyframes

        // Within shared limits, the sheet being filled, the tiles waiting for it and the pool's decoders count as one
        // canvas, held until the last sheet is written.
        var canvas = PicturePermit(sharedLimits?.canvases)
        try await canvas.take()
        var tiles: [Int: StoryboardTile] = [:]
        var keyframesDone = 0
        do {
            try await BoundedTaskGroup.run(groups, atMost: tasksInFlight, admitting: { ordinals in
                ordinals.lowerBound < assembler.neededKeyframe + window
            }, { ordinals in
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
                                                           requestedTime: keyframe.presentationTime,
                                                           timescale: track.timescale)
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
            }) { finished in
                for (ordinal, tile) in finished { tiles[ordinal] = tile }
                keyframesDone += finished.count
                try await assembler.placeReady(from: &tiles, write: write)
                progress?(StoryboardProgress(cuesDone: assembler.cuesDone, cueCount: plan.cueCount, keyframesDone: keyframesDone,
                                             keyframeCount: keyframes.count, bytesFetched: meter.statistics.bytes,
                                             elapsed: watch.elapsed))
            }
            try await assembler.finish(write: write)
        } catch {
            await canvas.giveBack()
            throw error
        }
        await canvas.giveBack()
        try await assembler.writeBIF(interval: plan.interval, write: write)
        return assembler.storyboard(duration: plan.duration, interval: plan.interval, keyframeCount: keyframes.count,
                                    keyframeBytes: plan.keyframeBytes)
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
