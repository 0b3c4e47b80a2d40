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
        let keyframes = plan.keyframes

        var made: [Int: StoryboardTile] = [:]
        let tileSize: PixelSize
        if let tileHeight = options.tileHeight {
            tileSize = PixelSize(width: options.tileWidth, height: tileHeight)
        } else {
            // The first keyframe's picture fitted to the tile width gives the height; it is the first tile.
            let first = try await tile(of: keyframes[0], in: session, options: tileOptions(box: tileBox))
            let height = min(first.image.height, 4096)
            tileSize = PixelSize(width: options.tileWidth, height: height)
            made[0] = first.image.height == height ? first
                : try await tile(of: keyframes[0], in: session, options: tileOptions(box: tileSize))
        }
        let pictureOptions = tileOptions(box: tileSize)
        let tiles: @Sendable (Range<Int>) async throws -> [(Int, StoryboardTile)] = { ordinals in
            if ordinals.count > 1 { try await session.prefetch(ordinals.map { keyframes[$0].segment }) }
            var made: [(Int, StoryboardTile)] = []
            for ordinal in ordinals {
                made.append((ordinal, try await tile(of: keyframes[ordinal], in: session, options: pictureOptions)))
            }
            return made
        }
        return StoryboardKeyframes(plan: plan, tileSize: tileSize, madeTiles: made, groups: plan.fetchGroups(from: made.count),
                                   groupsAtOnce: options.maximumConcurrentFetches, tiles: tiles, duration: plan.end,
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
    private func tile(of keyframe: StreamStoryboardPlan.Keyframe, in session: StreamSession,
                      options thumbnailOptions: ThumbnailOptions) async throws -> StoryboardTile {
        let picture = try await StreamSeekMap(session: session, options: thumbnailOptions)
            .keyframePicture(startingSegment: keyframe.segment, of: keyframe.rendition)
        let made = try await ThumbnailGenerator(media: .stream(session), options: thumbnailOptions).image(of: picture, options: thumbnailOptions)
        let encoded = options.singleImages || options.maximumSheetBytes != nil ? try options.format.encode(made.image) : nil
        return StoryboardTile(image: made.image, encoded: encoded, keyframeTime: made.keyframeMediaTime,
                              keyframeSample: Int(truncatingIfNeeded: keyframe.segment.number))
    }
}
