import MP4Box

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

    /// The size on screen of a picture of `size` samples: the width scaled by the ratio (nearest pixel), the height
    /// kept, as `MovieTrack.displaySize`: 256x144 at 4:3 shows as 341x144; 640x360 at 44:45 as 626x360.
    public func displaySize(of size: PixelSize) -> PixelSize {
        PixelSize(width: MovieTrack.displayWidth(ofSamples: size.width, horizontal: horizontal, vertical: vertical),
                  height: max(size.height, 1))
    }
}
