/// Where a picture of a given display size lands in a thumbnail: the sizing rules, in display orientation.
///
/// - `.fit`: inside the box, aspect ratio kept. The limiting side gets exactly
///   its bound and the other is rounded half up, never to 0 (1920x1080 in
///   320x320 is 320x180).
/// - `.fill`: covers the box and shows its centre (the renderer moves the window where `RenderOptions.fillWindow`
///   says), exactly the box.
/// - `.pad`: `.fit`, centred on a canvas of exactly the box (black bars).
/// - `.stretch`: exactly the box.
///
/// A zero side of the box is unconstrained: with one zero side every mode is
/// `.fit` to the other, with both zero the picture keeps its display size.
/// Without `allowsUpscaling` no side is scaled up: a small picture stays as it
/// is (`.fit`, `.pad` centres it on the full box), `.fill` shows the largest
/// part of the box's shape the picture holds at 1:1, and `.stretch` clamps each
/// side to the picture's. Sides are clamped to 1...`maximumSide`.
public struct ThumbnailLayout: Sendable, Equatable {
    /// The size of the output image.
    public var canvas: PixelSize
    /// The size the picture is scaled to.
    public var content: PixelSize
    /// The picture's top-left corner in the canvas (nonzero only for `.pad`).
    public var contentOrigin: (x: Int, y: Int)
    /// The centred fraction of the picture's width and height that is shown (below 1 only for `.fill`).
    public var visibleFraction: (width: Double, height: Double)

    /// The layout of a picture shown at `display` size in `box`.
    public init(display: PixelSize, box: PixelSize, fitMode: RenderOptions.FitMode, allowsUpscaling: Bool) {
        let limit = Self.maximumSide
        let display = PixelSize(width: min(max(display.width, 1), limit), height: min(max(display.height, 1), limit))
        let box = PixelSize(width: min(max(box.width, 0), limit), height: min(max(box.height, 0), limit))
        let fitted = Self.fitted(display, in: box, allowsUpscaling: allowsUpscaling)
        canvas = fitted
        content = fitted
        contentOrigin = (0, 0)
        visibleFraction = (1, 1)
        guard box.width > 0 && box.height > 0 else { return }
        switch fitMode {
        case .fit:
            break
        case .pad:
            canvas = box
            contentOrigin = ((box.width - fitted.width) / 2, (box.height - fitted.height) / 2)
        case .stretch:
            content = allowsUpscaling ? box
                : PixelSize(width: min(box.width, display.width), height: min(box.height, display.height))
            canvas = content
        case .fill:
            // Scale so the picture covers the box; without upscaling, shrink the box into the picture instead.
            let coverScale = max(Double(box.width) / Double(display.width), Double(box.height) / Double(display.height))
            if coverScale <= 1 || allowsUpscaling {
                content = box
                visibleFraction = (min(1, Double(box.width) / (Double(display.width) * coverScale)),
                                   min(1, Double(box.height) / (Double(display.height) * coverScale)))
            } else {
                content = Self.fitted(box, in: display, allowsUpscaling: false)
                visibleFraction = (Double(content.width) / Double(display.width),
                                   Double(content.height) / Double(display.height))
            }
            canvas = content
        }
    }

    /// Sides are clamped to this many pixels (2^24), so that no product of two sides can overflow.
    public static let maximumSide = 1 << 24

    /// `size` fitted inside `box` (zero sides unconstrained), aspect ratio kept, in whole pixels.
    static func fitted(_ size: PixelSize, in box: PixelSize, allowsUpscaling: Bool) -> PixelSize {
        if box.width == 0 && box.height == 0 { return size }
        let width = Int64(size.width), height = Int64(size.height)
        let boxWidth = Int64(box.width), boxHeight = Int64(box.height)
        // The width limits when boxWidth / width <= boxHeight / height (a zero bound never limits).
        let widthLimits = box.height == 0 || (box.width != 0 && boxWidth * height <= boxHeight * width)
        if widthLimits {
            if boxWidth >= width && !allowsUpscaling { return size }
            return PixelSize(width: box.width, height: Int(max(1, roundedQuotient(height * boxWidth, width))))
        }
        if boxHeight >= height && !allowsUpscaling { return size }
        return PixelSize(width: Int(max(1, roundedQuotient(width * boxHeight, height))), height: box.height)
    }

    /// `numerator / denominator` rounded half up, for positive terms, without floating point.
    static func roundedQuotient(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        (2 * numerator + denominator) / (2 * denominator)
    }

    /// Whether two layouts place the picture the same way.
    public static func == (lhs: ThumbnailLayout, rhs: ThumbnailLayout) -> Bool {
        lhs.canvas == rhs.canvas && lhs.content == rhs.content && lhs.contentOrigin == rhs.contentOrigin
            && lhs.visibleFraction == rhs.visibleFraction
    }
}
