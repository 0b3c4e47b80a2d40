/// The shape of one sample on screen, horizontal spacing : vertical spacing (pasp, or the SPS VUI).
public struct PixelAspectRatio: Sendable, Equatable, Hashable {
    /// Relative horizontal spacing (`hSpacing`).
    public var horizontal: Int
    /// Relative vertical spacing (`vSpacing`).
    public var vertical: Int

    /// Makes a ratio; a zero or negative term means square pixels.
    public init(horizontal: Int, vertical: Int) {
        if horizontal > 0 && vertical > 0 {
            self.horizontal = horizontal
            self.vertical = vertical
        } else {
            self.horizontal = 1
            self.vertical = 1
        }
    }

    /// Square pixels.
    public static let square = PixelAspectRatio(horizontal: 1, vertical: 1)

    /// The size on screen of a picture of `size` samples: the wider axis is stretched (rounded down), never squashed.
    ///
    /// The same rule as `Track.displaySize`: 256x144 at 4:3 shows as 341x144; at 3:4 as 256x192.
    public func displaySize(of size: PixelSize) -> PixelSize {
        var width = size.width
        var height = size.height
        if horizontal > vertical {
            width = Int(Int64(width) * Int64(horizontal) / Int64(vertical))
        } else if vertical > horizontal {
            height = Int(Int64(height) * Int64(vertical) / Int64(horizontal))
        }
        return PixelSize(width: max(width, 1), height: max(height, 1))
    }
}
