import BoundedTasks
import ByteSources
import MP4Box
import StreamManifests
import Thumbs

/// Makes a storyboard of an HLS or DASH stream from its keyframes alone, as `StoryboardMaker` does of a movie: the
/// same sheets, tracks and options, on the stream's timeline.
///
/// The keyframes are those known without reading media (`StreamStoryboardPlan`): where an HLS master names an I-frame
/// playlist, every keyframe, each read alone by its byte range; else the segments' starts, each read as a thumbnail
/// of the stream reads it (the init segment once, then the segment's head up to its first keyframe: a fragmented
/// segment's moof and keyframe, an MPEG-TS segment until the keyframe's access unit is whole). The rendition of each
/// period is the smallest whose picture covers a tile, else the largest. At most `maximumConcurrentFetches`
/// keyframes are read and decoded at once (each read is its own segment, or its own range of one), at most a
/// bounded window ahead of the next tile to place, and tiles are placed in cue order.
///
/// A live stream whose segments have no end (a DASH template without a timeline) is storyboarded over its time-shift
/// window up to its newest whole segment, by `StreamSession.wallClock`.
///
/// Without `tileHeight`, the tile's height follows the first keyframe's picture (its display aspect ratio, upright
/// unless `appliesPreferredTrackTransform` is off), which is read before the others.
public struct StreamStoryboardMaker: Sendable {
    /// The stream read.
    public let session: StreamSession
    /// What the storyboard looks like.
    public let options: StoryboardOptions

    /// A maker of storyboards of `session`'s stream.
    public init(session: StreamSession, options: StoryboardOptions = StoryboardOptions()) {
        self.session = session
        self.options = options
    }

    /// A maker for the stream whose playlist or manifest `input` reads.
    public init(input: any MovieInput, options: StoryboardOptions = StoryboardOptions()) {
        self.init(session: StreamSession(input: input), options: options)
    }

    /// Makes the storyboard. Each image file is passed to `write` (its file name and bytes) as soon as it is
    /// finished, in order. `progress` is called after each keyframe is placed. The storyboard's `keyframeBytes` are
    /// the bytes read for the keyframes (segment heads or I-frame ranges, with init segments and playlists).
    /// - Throws: `StoryboardError` (`invalidOption`, `noSamples`, `noDuration`, `noKeyframe`); what
    ///   `ThumbnailGenerator` throws for a stream's keyframe (`ThumbnailError`, `ManifestError`, `TransportStreamError`,
    ///   `DecodeError`, `MP4Error`, the input's errors); whatever `write` throws; `CancellationError`.
    public func make(progress: (@Sendable (StoryboardProgress) -> Void)? = nil,
                     write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        try options.validate()
        let meter = FetchMeter()
        return try await meter.measure { try await makeMeasured(by: meter, progress: progress, write: write) }
    }

    private func makeMeasured(by meter: FetchMeter, progress: (@Sendable (StoryboardProgress) -> Void)?,
                              write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        let watch = Stopwatch()
        let presentation = try await session.loadPresentation()
        // The rendition of each period for a tile, an I-frame playlist first.
        let chooser = StreamSeekMap(session: session, options: tileOptions(box: tileBox))
        var renditions: [StreamRendition?] = []
        for period in presentation.periods {
            let listed = chooser.rendition(in: period, iFrameOnly: true) ?? chooser.rendition(in: period)
            if let listed {
                renditions.append(try await session.withSegments(listed))
            } else {
                renditions.append(nil)
            }
        }
        let plan = try StreamStoryboardPlan(presentation: presentation, renditions: renditions, options: options,
                                            liveEdge: liveEdge(of: presentation, renditions: renditions))
        let keyframes = plan.keyframes

        var tiles: [Int: StoryboardTile] = [:]
        let tileSize: PixelSize
        if let tileHeight = options.tileHeight {
            tileSize = PixelSize(width: options.tileWidth, height: tileHeight)
        } else {
            // The first keyframe's picture fitted to the tile width gives the height; it is the first tile.
            let first = try await tile(of: keyframes[0], options: tileOptions(box: tileBox))
            let height = min(first.image.height, 4096)
            tileSize = PixelSize(width: options.tileWidth, height: height)
            tiles[0] = first.image.height == height ? first
                : try await tile(of: keyframes[0], options: tileOptions(box: tileSize))
        }
        var assembler = try Assembler(plan: plan, options: options, tileSize: tileSize)
        let pictureOptions = tileOptions(box: tileSize)
        let tasksInFlight = options.maximumConcurrentFetches
        let window = max(4 * tasksInFlight, 32)
        var keyframesDone = tiles.count
        // Keyframes of one resource (an I-frame playlist's, in one file) are read together, a run at a time.
        let groups = plan.fetchGroups(from: tiles.count)
        func placeReady() async throws {
            try await assembler.placeReady(from: &tiles, write: write)
            progress?(StoryboardProgress(cuesDone: assembler.cuesDone, cueCount: plan.cueCount, keyframesDone: keyframesDone,
                                         keyframeCount: keyframes.count, bytesFetched: meter.statistics.bytes,
                                         elapsed: watch.elapsed))
        }
        if !tiles.isEmpty { try await placeReady() }
        try await BoundedTaskGroup.run(groups, atMost: tasksInFlight, admitting: { ordinals in
            ordinals.lowerBound < assembler.neededKeyframe + window
        }, { ordinals in
            if ordinals.count > 1 { try await session.prefetch(ordinals.map { keyframes[$0].segment }) }
            var made: [(Int, StoryboardTile)] = []
            for ordinal in ordinals {
                made.append((ordinal, try await tile(of: keyframes[ordinal], options: pictureOptions)))
            }
            return made
        }) { made in
            for (ordinal, tile) in made { tiles[ordinal] = tile }
            keyframesDone += made.count
            try await placeReady()
        }
        try await assembler.finish(write: write)
        try await assembler.writeBIF(interval: plan.interval, write: write)
        return assembler.storyboard(duration: plan.end, interval: plan.interval, keyframeCount: keyframes.count,
                                    keyframeBytes: meter.statistics.bytes)
    }

    /// Of a live stream whose last rendition's segments have no end (a DASH template without a timeline), where its
    /// newest whole segment ends (`StreamSession.liveEdge(of:in:)`). Nil otherwise.
    private func liveEdge(of presentation: StreamPresentation, renditions: [StreamRendition?]) -> Duration? {
        guard let last = renditions.last(where: { $0?.segments?.first != nil }), let segments = last?.segments else { return nil }
        return session.liveEdge(of: segments, in: presentation)
    }

    /// The box a tile is fitted to before its size is known: the tile width, and the height when given.
    private var tileBox: PixelSize { PixelSize(width: options.tileWidth, height: options.tileHeight ?? 0) }

    /// Thumbnail options for a tile in `box`: exactly the box (stretched, or fitted on black when both sides were
    /// given; a box with a free side fits the picture to the other), small pictures scaled up, not encoded.
    private func tileOptions(box: PixelSize) -> ThumbnailOptions {
        var thumbnail = ThumbnailOptions()
        thumbnail.maximumSize = box
        thumbnail.fitMode = options.tileHeight == nil ? .stretch : .pad
        thumbnail.allowsUpscaling = true
        thumbnail.appliesPreferredTrackTransform = options.appliesPreferredTrackTransform
        thumbnail.format = nil
        thumbnail.allowsCoverArt = false
        return thumbnail
    }

    /// The tile of `keyframe`, encoded on its own when the options need its bytes (single images, a byte cap).
    private func tile(of keyframe: StreamStoryboardPlan.Keyframe, options thumbnailOptions: ThumbnailOptions) async throws -> StoryboardTile {
        let picture = try await StreamSeekMap(session: session, options: thumbnailOptions)
            .keyframePicture(startingSegment: keyframe.segment, of: keyframe.rendition)
        let made = try await ThumbnailGenerator(stream: session, options: thumbnailOptions).image(of: picture, options: thumbnailOptions)
        let image = made.image
        let encoded = options.singleImages || options.maximumSheetBytes != nil ? try options.format.encode(image) : nil
        return StoryboardTile(image: image, encoded: encoded, keyframeTime: made.keyframeMediaTime,
                              keyframeSample: Int(truncatingIfNeeded: keyframe.segment.number))
    }
}
