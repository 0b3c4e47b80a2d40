/// A rectangle of an image in whole pixels: where a storyboard tile sits in its sheet, or the `#xywh=` region of a
/// thumbnail cue.
public struct PixelRegion: Sendable, Equatable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width (positive).
    public var width: Int
    /// Height (positive).
    public var height: Int

    /// Makes a region.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
