import BoundedTasks
import ByteSources
import FrameDecode
import MP4Box
import Thumbs

/// Makes a storyboard of a movie or a stream (`Media`) from its keyframes alone: sheets of tiles (or single images),
/// in cue order.
///
/// The pipeline: plan the cues and their distinct keyframes (of a movie from its index, `StoryboardPlan`; of a stream
/// from its playlists, `StreamStoryboardPlan`); read the keyframes in groups (a movie's byte-adjacent samples, a
/// stream's ranges of one resource), at most a bound of groups in flight; decode each keyframe once and render it to
/// a tile; place the tiles in cue order and hand each finished sheet to the caller. Work runs at most a bounded window
/// of keyframes ahead of the next tile to place, so memory is one sheet plus the tiles in flight, whatever the length
/// of the video, and the output is the same whatever order the reads and decodes finish in.
///
/// Of a movie, at most `maximumConcurrentFetches` reads are in flight and `maximumConcurrentDecodes` decodes, one
/// decoder each (and within the session's `workLimits`). Of a stream, the keyframes are those known without reading
/// media: where an HLS master names an I-frame playlist, every keyframe, each read alone by its byte range; else the
/// segments' starts, each read as a thumbnail of the stream reads it (the init segment once, then the segment's head
/// up to its first keyframe); at most `maximumConcurrentFetches` keyframes at once. The rendition of each period is
/// the smallest whose picture covers a tile, else the largest; a live stream whose segments have no end (a DASH
/// template without a timeline) is storyboarded over its time-shift window up to its newest whole segment, by
/// `StreamSession.wallClock`. Without `tileHeight`, a stream's tile height follows its first keyframe's picture,
/// which is read before the others.
public struct StoryboardMaker: Sendable {
    /// The movie or stream read.
    public let media: Media
    /// What the storyboard looks like.
    public let options: StoryboardOptions

    /// A maker of storyboards of `media`. Within its session's `workLimits` (a `ThumbnailService`'s, other
    /// storyboards'), each fetch and decode also waits for a place in them, and a movie's storyboard holds one of their
    /// `canvases` while it fills its sheets, so a service's pictures at once stay within one bound however many
    /// storyboards and thumbnails it makes.
    public init(media: Media, options: StoryboardOptions = StoryboardOptions()) {
        self.media = media
        self.options = options
    }

    /// A maker for the movie in `source`, with a session of its own that finds the index with `locator` and shares
    /// `sharedLimits` (nil: only this storyboard's own bounds from `options`).
    public init(source: any ByteSource, options: StoryboardOptions = StoryboardOptions(), locator: MovieLocator = MovieLocator(),
                sharedLimits: ThumbnailWorkLimits? = nil) {
        self.init(media: .movie(MovieSession(source: source, sampleCacheBytes: 0, workLimits: sharedLimits, locator: locator)),
                  options: options)
    }

    /// Makes the storyboard. Each image file is passed to `write` (its file name and bytes) as soon as it is
    /// finished, in order; the returned value describes the cues and sheets (for `webVTT()` and `manifest`).
    /// `progress` is called after each keyframe is placed. A stream's `keyframeBytes` are the bytes read for the
    /// keyframes (segment heads or I-frame ranges, with init segments and playlists).
    /// - Throws: `StoryboardError` (`invalidOption`, `noSamples`, `noDuration`, `noKeyframe`); `ThumbnailError` (`noVideo`,
    ///   `noFrame`, `sampleOutOfRange`, `encodingFailed`), `DecodeError`, `MP4Error`, the source's errors; of a stream,
    ///   `ManifestError` and `TransportStreamError` too; whatever `write` throws, `CancellationError`.
    public func make(progress: (@Sendable (StoryboardProgress) -> Void)? = nil,
                     write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        try options.validate()
        let meter = FetchMeter()
        return try await meter.measure {
            let watch = Stopwatch()
            switch media {
            case .movie(let session):
                return try await assemble(try await keyframes(of: session), meter: meter, watch: watch, progress: progress, write: write)
            case .stream(let session):
                return try await assemble(try await keyframes(of: session, meter: meter), meter: meter, watch: watch,
                                          progress: progress, write: write)
            }
        }
    }

    /// Places the tiles of `keyframes` in cue order as their groups are made (`BoundedTaskGroup`: at most
    /// `groupsAtOnce`, at most a window of keyframes ahead of the next tile to place), holding a canvas of the shared
    /// bounds meanwhile; writes each finished sheet, then the BIF file.
    private func assemble<Plan>(_ keyframes: StoryboardKeyframes<Plan>, meter: FetchMeter, watch: Stopwatch,
                                progress: (@Sendable (StoryboardProgress) -> Void)?,
                                write: (_ fileName: String, _ bytes: [UInt8]) async throws -> Void) async throws -> Storyboard {
        let plan = keyframes.plan
        var assembler = try Assembler(plan: plan, options: options, tileSize: keyframes.tileSize)
        let window = max(4 * keyframes.groupsAtOnce, 32)
        var tiles = keyframes.madeTiles
        var keyframesDone = tiles.count
        // Within shared limits, the sheet being filled, the tiles waiting for it and the decoders count as one canvas,
        // held until the last sheet is written.
        var canvas = PicturePermit(keyframes.canvases)
        try await canvas.take()
        do {
            func placeReady() async throws {
                try await assembler.placeReady(from: &tiles, write: write)
                progress?(StoryboardProgress(cuesDone: assembler.cuesDone, cueCount: plan.cueCount, keyframesDone: keyframesDone,
                                             keyframeCount: plan.keyframeCount, bytesFetched: meter.statistics.bytes,
                                             elapsed: watch.elapsed))
            }
            if !tiles.isEmpty { try await placeReady() }
            try await BoundedTaskGroup.run(keyframes.groups, atMost: keyframes.groupsAtOnce, admitting: { ordinals in
                ordinals.lowerBound < assembler.neededKeyframe + window
            }, keyframes.tiles) { made in
                for (ordinal, tile) in made { tiles[ordinal] = tile }
                keyframesDone += made.count
                try await placeReady()
            }
            try await assembler.finish(write: write)
        } catch {
            await canvas.giveBack()
            throw error
        }
        await canvas.giveBack()
        try await assembler.writeBIF(interval: keyframes.interval, write: write)
        return assembler.storyboard(duration: keyframes.duration, interval: keyframes.interval, keyframeCount: plan.keyframeCount,
                                    keyframeBytes: keyframes.keyframeBytes())
    }

    /// The tiles of `keyframes[ordinals]`, read together by `reading` (`KeyframePictures`): each keyframe's picture,
    /// encoded on its own when the options need its bytes (single images, a byte cap), within the reading's decode
    /// bounds.
    /// - Throws: the first keyframe's error that gave no picture; what `KeyframePictures.pictures(of:)` throws.
    func tiles(of ordinals: Range<Int>, _ keyframes: [MediaKeyframe],
               reading: KeyframePictures) async throws -> [(Int, StoryboardTile)] {
        let group = try await reading.pictures(of: Array(keyframes[ordinals]))
        let (encodes, format) = (options.singleImages || options.maximumSheetBytes != nil, options.format)
        var tiles: [(Int, StoryboardTile)] = []
        for (ordinal, result) in zip(ordinals, group.pictures) {
            let picture = try result.get()
            let keyframeSample = switch keyframes[ordinal] {
            case .sample(let sample, _): sample.index
            case .segment(let segment, _), .searched(let segment, _, _): Int(truncatingIfNeeded: segment.number)
            }
            let image = picture.image
            let encoded = encodes ? try await reading.withinDecodeBounds { try format.encode(image) } : nil
            tiles.append((ordinal, StoryboardTile(image: image, encoded: encoded, keyframeTime: picture.time,
                                                  keyframeSample: keyframeSample)))
        }
        return tiles
    }

    /// Thumbnail options for a tile in `box`: exactly the box (stretched, or fitted on black when both sides were
    /// given; a box with a free side fits the picture to the other), small pictures scaled up, the picture within
    /// `aperture` (a movie's tiles take the production aperture, as its tile size comes from its display size, which no
    /// clean aperture crops; a stream's the clean aperture, as a thumbnail does, its tile size coming from its first
    /// picture), not encoded.
    func tileOptions(box: PixelSize, aperture: ThumbnailOptions.ApertureMode = .cleanAperture) -> ThumbnailOptions {
        var thumbnail = ThumbnailOptions()
        thumbnail.maximumSize = box
        thumbnail.fitMode = options.tileHeight == nil ? .stretch : .pad
        thumbnail.apertureMode = aperture
        thumbnail.allowsUpscaling = true
        thumbnail.appliesPreferredTrackTransform = options.appliesPreferredTrackTransform
        thumbnail.format = nil
        thumbnail.allowsCoverArt = false
        return thumbnail
    }
}
