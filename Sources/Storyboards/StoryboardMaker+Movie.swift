import ByteSources
import FrameDecode
import MP4Box
import Thumbs

extension StoryboardMaker {
    /// A movie's keyframes (`StoryboardPlan`, from the complete index), read by `KeyframePictures` in runs of
    /// byte-adjacent samples (keyframes apart are asked for together where a request costs a round trip), at most
    /// `maximumConcurrentFetches` reads and `maximumConcurrentDecodes` decodes at once (within the session's
    /// `workLimits` too), each decoded once and rendered to a tile.
    func keyframes(of session: MovieSession) async throws -> StoryboardKeyframes<StoryboardPlan> {
        let movie = try await session.loadCompleteMovie()
        let track = try movie.thumbnailTrack()
        let plan = try StoryboardPlan(track: track, options: options)
        let tileSize = Self.tileSize(for: track, options: options)
        let decodes = options.maximumConcurrentDecodes ?? max(1, ProcessInfoCores.active)
        let tile = tileOptions(box: tileSize, aperture: .productionAperture)
        let reading = KeyframePictures(media: .movie(session), track: track, options: tile, decodes: decodes,
                                       fetchLimiter: AsyncLimiter(limit: options.maximumConcurrentFetches),
                                       maximumGap: options.coalescingGap)
        let keyframes = plan.keyframes.map { MediaKeyframe.sample($0.sample, presentationTime: $0.presentationTime) }
        return StoryboardKeyframes(
            plan: plan, tileSize: tileSize,
            groups: plan.fetchGroups(maximumGap: options.coalescingGap, joiningApart: session.source.coalescingGap > 0),
            groupsAtOnce: options.maximumConcurrentFetches + decodes,
            tiles: { ordinals in try await tiles(of: ordinals, keyframes, reading: reading) }, duration: plan.duration,
            interval: plan.interval, canvases: session.workLimits?.canvases, keyframeBytes: { plan.keyframeBytes })
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
}
