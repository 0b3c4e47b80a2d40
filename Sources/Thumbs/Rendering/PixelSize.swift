/// A width and a height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Makes a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size with width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// "WIDTHxHEIGHT".
    public var description: String { "\(width)x\(height)" }
}
