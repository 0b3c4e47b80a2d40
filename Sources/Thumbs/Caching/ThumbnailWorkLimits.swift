/// Bounds on concurrent work shared by several generators and storyboards: sample fetches, pictures being made, and
/// pictures assembled from many decodes.
///
/// Memory follows these bounds, not the number of requests waiting: a thumbnail holds one of `decodes` from
/// before its decoder is made until its picture is encoded (`PicturePermit`), a storyboard one of `canvases` while
/// it assembles its sheets (and one of `decodes` for each keyframe it decodes and renders).
public struct ThumbnailWorkLimits: Sendable {
    /// Concurrent sample fetches.
    public let fetches: AsyncLimiter
    /// Concurrent pictures: a decoder with its frames, rendering and encoding.
    public let decodes: AsyncLimiter
    /// Concurrent canvases: a storyboard's sheet (or other picture made of many) held between its decodes.
    public let canvases: AsyncLimiter

    /// Limits of `fetches` concurrent fetches, `decodes` concurrent pictures and `canvases` concurrent canvases
    /// (default: as many as `decodes`).
    public init(fetches: Int, decodes: Int, canvases: Int? = nil) {
        self.fetches = AsyncLimiter(limit: fetches)
        self.decodes = AsyncLimiter(limit: decodes)
        self.canvases = AsyncLimiter(limit: canvases ?? decodes)
    }
}
