import FrameDecode
import MP4Box

/// Turns a `DecodedFrame` into an upright, sized `RGBImage`.
///
/// The order is the cheapest that gives the same picture: the crop and the
/// visible part (for `.fill`) select a source region; the Y', Cb and Cr planes
/// are area-averaged from that region straight to the output size (pixel
/// aspect ratio included, chroma to full output resolution); the colour is
/// converted on those few samples; the small RGB image is then mirrored and
/// turned, and placed on its canvas. Scaling before the colour conversion
/// averages signal values, not light (as swscale does). Chroma samples are
/// taken as centred on the luma samples they cover. A frame whose colr box
/// and VUI leave the matrix unspecified is converted with BT.601 below HD and
/// BT.709 from HD up (1280 wide or more than 576 high), as CoreVideo and mpv guess.
/// A frame with an alpha plane (transparent VP8 and VP9 in WebM) gives `.rgba8`: the plane is scaled as the luma
/// is, straight (not premultiplied); the black a canvas adds around the picture stays opaque. An HDR picture kept
/// as `.rgb16` has no alpha. An interlaced frame (`DecodedFrame.fieldOrder`) is deinterlaced first (`Deinterlacer`).
public enum Renderer {
    /// Output images are refused above this many pixels (8192 x 8192).
    public static let maximumOutputPixelCount = 1 << 26

    /// The thumbnail of `frame`.
    /// - Throws: `ThumbnailError` `invalidFrame` when the planes do not match the frame's size and format;
    ///   `invalidOption` for a negative box side, a crop outside the picture, or an output above
    ///   `maximumOutputPixelCount`; `CancellationError` when the task is cancelled, between stages (a 4K picture
    ///   takes a few tenths of a second a stage in a debug build).
    public static func render(_ frame: DecodedFrame, options: RenderOptions) throws -> RGBImage {
        let frame = Deinterlacer.deinterlaced(frame)
        let source = try SourcePicture(frame)
        let region = try cropRegion(source, options: options)
        let layout = try self.layout(croppedWidth: region.width, croppedHeight: region.height, options: options)
        if options.fitMode == .fill, options.fillWindow != .centre, let placed = try windowed(frame, layout: layout, options: options) {
            return placed
        }
        let orientation = options.effectiveOrientation

        // Back to the coded orientation: the size to scale to, and the part of the region it shows.
        var content = layout.content
        var fraction = layout.visibleFraction
        if orientation.swapsDimensions {
            content = content.transposed
            fraction = (fraction.height, fraction.width)
        }
        let shown = CropRectangle(x: region.x + region.width * (1 - fraction.width) / 2,
                                  y: region.y + region.height * (1 - fraction.height) / 2,
                                  width: region.width * fraction.width, height: region.height * fraction.height)

        try Task.checkCancellation()
        let luma = try AreaScaler.scale(frame.planes[0], bytesPerSample: source.bytesPerSample, region: shown, to: content)
        var cb: [Float]?
        var cr: [Float]?
        if let subsampling = source.chromaSubsampling {
            let chromaRegion = CropRectangle(x: shown.x / subsampling.x, y: shown.y / subsampling.y,
                                             width: shown.width / subsampling.x, height: shown.height / subsampling.y)
            try Task.checkCancellation()
            cb = try AreaScaler.scale(frame.planes[1], bytesPerSample: source.bytesPerSample, region: chromaRegion, to: content)
            try Task.checkCancellation()
            cr = try AreaScaler.scale(frame.planes[2], bytesPerSample: source.bytesPerSample, region: chromaRegion, to: content)
        }
        try Task.checkCancellation()
        let colour = frame.colour.resolvingUnspecifiedMatrix(width: frame.width, height: frame.height)
        var image = ColourConverter.image(luma: luma, cb: cb, cr: cr, size: content, bitDepth: frame.bitDepth,
                                          colour: colour, keepsHDR: options.keepsHDR, toneMapping: options.toneMapping)
        if let alpha = frame.alpha, image.pixelFormat == .rgb8 {
            try Task.checkCancellation()
            let scaled = try AreaScaler.scale(alpha, bytesPerSample: source.bytesPerSample, region: shown, to: content)
            image = image.withAlpha(scaled, maximum: Float((1 << frame.bitDepth) - 1))
        }
        try Task.checkCancellation()
        image = image.oriented(by: orientation)
        if layout.canvas != layout.content {
            image = image.placed(onBlackCanvasOf: layout.canvas, at: layout.contentOrigin)
        }
        if image.pixelFormat == .rgb16 {  // HDR signal kept: full-range R'G'B' in the movie's colours
            image.signal = ColourDescription(primaries: colour.primaries, transfer: colour.transfer, matrix: colour.matrix,
                                             fullRange: true)
        }
        return image
    }

    /// `.fill` with a window other than the centre: the whole picture rendered upright at the size that covers the
    /// box (`layout.content` over its visible fraction), then the window `SubjectWindow` places cut out of it and put
    /// on the canvas. Nil when nothing is cut (the picture has the box's shape) or the covering picture came out
    /// smaller than the window (rounding): the centre then, as `render` makes it.
    private static func windowed(_ frame: DecodedFrame, layout: ThumbnailLayout, options: RenderOptions) throws -> RGBImage? {
        let visible = layout.visibleFraction
        guard visible.width < 1 || visible.height < 1 else { return nil }
        var whole = options
        whole.fitMode = .fit
        whole.allowsUpscaling = true
        whole.maximumSize = PixelSize(width: Int((Double(layout.content.width) / visible.width).rounded()),
                                      height: Int((Double(layout.content.height) / visible.height).rounded()))
        let picture = try render(frame, options: whole)
        guard picture.width >= layout.content.width, picture.height >= layout.content.height else { return nil }
        try Task.checkCancellation()
        let origin = SubjectWindow.origin(of: layout.content, in: picture, window: options.fillWindow)
        var image = picture.cropped(x: origin.x, y: origin.y, size: layout.content)
        if layout.canvas != layout.content {
            image = image.placed(onBlackCanvasOf: layout.canvas, at: layout.contentOrigin)
        }
        image.signal = picture.signal
        return image
    }

    /// Where `frame` lands with `options`: its display size (crop, pixel aspect ratio, orientation) laid out in the box.
    /// - Throws: `ThumbnailError` as `render(_:options:)` does.
    public static func layout(of frame: DecodedFrame, options: RenderOptions) throws(ThumbnailError) -> ThumbnailLayout {
        let region = try cropRegion(try SourcePicture(frame), options: options)
        return try layout(croppedWidth: region.width, croppedHeight: region.height, options: options)
    }

    /// The display size of a cropped picture, laid out in the box, checked against the output limit.
    static func layout(croppedWidth: Double, croppedHeight: Double, options: RenderOptions) throws(ThumbnailError) -> ThumbnailLayout {
        let cropped = PixelSize(width: max(1, Int(croppedWidth.rounded())), height: max(1, Int(croppedHeight.rounded())))
        var display = options.pixelAspectRatio.displaySize(of: cropped)
        if options.effectiveOrientation.swapsDimensions { display = display.transposed }
        return try layout(display: display, box: options.maximumSize, fitMode: options.fitMode, allowsUpscaling: options.allowsUpscaling)
    }

    /// A picture of `display` pixels laid out in `box` (any picture: a frame or the cover art), checked against the
    /// output limit.
    /// - Throws: `ThumbnailError` `invalidOption` for a negative box side, or an output above `maximumOutputPixelCount`.
    static func layout(display: PixelSize, box: PixelSize, fitMode: RenderOptions.FitMode,
                       allowsUpscaling: Bool) throws(ThumbnailError) -> ThumbnailLayout {
        guard box.width >= 0, box.height >= 0 else {
            throw ThumbnailError(.invalidOption, "maximum size \(box) has a negative side")
        }
        let layout = ThumbnailLayout(display: display, box: box, fitMode: fitMode, allowsUpscaling: allowsUpscaling)
        let (pixelCount, overflow) = layout.canvas.width.multipliedReportingOverflow(by: layout.canvas.height)
        guard !overflow, pixelCount <= maximumOutputPixelCount else {
            throw ThumbnailError(.invalidOption, "an output of \(layout.canvas) is larger than \(maximumOutputPixelCount) pixels")
        }
        return layout
    }

    /// The part of the picture the crop option keeps (the whole picture without one).
    static func cropRegion(_ source: SourcePicture, options: RenderOptions) throws(ThumbnailError) -> CropRectangle {
        guard let crop = options.crop else {
            return CropRectangle(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        }
        guard let clamped = crop.clamped(toWidth: source.width, height: source.height) else {
            throw ThumbnailError(.invalidOption, "crop \(crop.width)x\(crop.height) at (\(crop.x), \(crop.y)) "
                                 + "is outside the \(source.width)x\(source.height) picture")
        }
        return clamped
    }
}
