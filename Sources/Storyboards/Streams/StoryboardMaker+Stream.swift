import ByteSources
import MP4Box
import StreamManifests
import Thumbs

extension StoryboardMaker {
    /// A stream's keyframes (`StreamStoryboardPlan`: those known without reading media), on the stream's timeline:
    /// the rendition of each period for a tile (an I-frame playlist first); the tile height, without `tileHeight`,
    /// from the first keyframe's picture (which is the first tile); keyframes of one resource (an I-frame playlist's,
    /// in one file) read together, a run at a time, at most `maximumConcurrentFetches` runs at once, each keyframe
    /// made as `ThumbnailGenerator` makes a stream's picture. The bytes read for them are what `meter` measures.
    func keyframes(of session: StreamSession, meter: FetchMeter) async throws -> StoryboardKeyframes<StreamStoryboardPlan> {
        let presentation = try await session.loadPresentation()
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
                                            liveEdge: liveEdge(of: presentation, renditions: renditions, in: session))
        let keyframes = plan.keyframes.map { keyframe in
            keyframe.near.map { MediaKeyframe.searched(keyframe.segment, of: keyframe.rendition, near: $0) }
                ?? MediaKeyframe.segment(keyframe.segment, of: keyframe.rendition)
        }
        func reading(box: PixelSize) -> KeyframePictures {
            KeyframePictures(media: .stream(session), track: nil, options: tileOptions(box: box), decodes: 1)
        }

        var made: [Int: StoryboardTile] = [:]
        let tileSize: PixelSize
        if let tileHeight = options.tileHeight {
            tileSize = PixelSize(width: options.tileWidth, height: tileHeight)
        } else {
            // The first keyframe's picture fitted to the tile width gives the height; it is the first tile.
            let first = try await tiles(of: 0..<1, keyframes, reading: reading(box: tileBox))[0].1
            let height = min(first.image.height, 4096)
            tileSize = PixelSize(width: options.tileWidth, height: height)
            made[0] = first.image.height == height ? first
                : try await tiles(of: 0..<1, keyframes, reading: reading(box: tileSize))[0].1
        }
        let tileReading = reading(box: tileSize)
        return StoryboardKeyframes(
            plan: plan, tileSize: tileSize, madeTiles: made, groups: plan.fetchGroups(from: made.count),
            groupsAtOnce: options.maximumConcurrentFetches,
            tiles: { ordinals in try await tiles(of: ordinals, keyframes, reading: tileReading) }, duration: plan.end,
            interval: plan.interval, canvases: nil, keyframeBytes: { meter.statistics.bytes })
    }

    /// Of a live stream whose last rendition's segments have no end (a DASH template without a timeline), where its
    /// newest whole segment ends (`StreamSession.liveEdge(of:in:)`). Nil otherwise.
    private func liveEdge(of presentation: StreamPresentation, renditions: [StreamRendition?],
                          in session: StreamSession) -> Duration? {
        guard let last = renditions.last(where: { $0?.segments?.first != nil }), let segments = last?.segments else { return nil }
        return session.liveEdge(of: segments, in: presentation)
    }

    /// The box a tile is fitted to before its size is known: the tile width, and the height when given.
    private var tileBox: PixelSize { PixelSize(width: options.tileWidth, height: options.tileHeight ?? 0) }
}
