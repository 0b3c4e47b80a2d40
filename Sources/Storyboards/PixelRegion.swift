import Thumbs

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

    /// Place `slot` of a sprite grid `columns` tiles across, filled row by row from the top left (0 is the top-left
    /// place): how sheets are laid out and how a grid template addresses them.
    public init(slot: Int, columns: Int, tileSize: PixelSize) {
        self.init(x: slot % columns * tileSize.width, y: slot / columns * tileSize.height,
                  width: tileSize.width, height: tileSize.height)
    }
}
