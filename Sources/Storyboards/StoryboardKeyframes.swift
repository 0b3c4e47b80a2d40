import Thumbs

/// The keyframes a storyboard shows and how their tiles are made, as a movie's index or a stream's playlists give
/// them (`StoryboardMaker`'s one assembly places them, whichever it is).
struct StoryboardKeyframes<Plan: StoryboardCuePlan>: Sendable {
    /// The cues and the keyframe each shows.
    var plan: Plan
    /// The size of every tile.
    var tileSize: PixelSize
    /// Tiles made while planning, by keyframe ordinal (a stream's first, whose picture gave the tile's height).
    var madeTiles: [Int: StoryboardTile] = [:]
    /// The keyframe ordinals read together, in order: each group's tiles are made by one `tiles` call.
    var groups: [Range<Int>]
    /// Most groups under way at once.
    var groupsAtOnce: Int
    /// The tiles of a group's keyframes, by ordinal.
    var tiles: @Sendable (Range<Int>) async throws -> [(Int, StoryboardTile)]
    /// The storyboard's duration, and its cues' spacing.
    var duration: Duration
    var interval: Duration
    /// Of the shared bounds, the canvas the storyboard holds while it fills its sheets (nil: none shared).
    var canvases: AsyncLimiter?
    /// The bytes read for the keyframes, once they are read.
    var keyframeBytes: @Sendable () -> UInt64
}
