import MP4Box

/// A part of the decoded picture, in luma samples from its top-left corner; fractions are allowed.
///
/// The decoder output is already cropped by the SPS conformance window; this
/// is a further crop, such as the clean aperture (`clap`).
public struct CropRectangle: Sendable, Equatable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Makes a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The clean aperture of a `width` x `height` picture: centred, moved by the box's offsets (ISO/IEC 14496-12, 12.1.4).
    public init(cleanAperture clap: CleanApertureBox, pictureWidth width: Int, pictureHeight height: Int) {
        self.init(x: (Double(width) - clap.width) / 2 + clap.horizontalOffset,
                  y: (Double(height) - clap.height) / 2 + clap.verticalOffset,
                  width: clap.width, height: clap.height)
    }

    /// The part of the rectangle inside a `width` x `height` picture, or nil when none of it is (or a term is not finite).
    func clamped(toWidth width: Int, height: Int) -> CropRectangle? {
        guard x.isFinite, y.isFinite, self.width.isFinite, self.height.isFinite else { return nil }
        let left = max(0, x)
        let top = max(0, y)
        let right = min(Double(width), x + self.width)
        let bottom = min(Double(height), y + self.height)
        guard right - left >= 0.5, bottom - top >= 0.5 else { return nil }
        return CropRectangle(x: left, y: top, width: right - left, height: bottom - top)
    }
}
