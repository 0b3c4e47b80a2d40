import FrameDecode
import MP4Box

/// The cover art (covr) as a thumbnail: decoded, fitted to the box like a frame, never upright-corrected.
enum CoverArtRenderer {
    /// Renders `art` with `options`' size and fit mode.
    /// - Throws: `ThumbnailError` `invalidImage` when the art does not decode; `invalidOption` as `Renderer` refuses a
    ///   box (a negative side, an output above `Renderer.maximumOutputPixelCount`).
    static func render(_ art: CoverArt, options: ThumbnailOptions) throws(ThumbnailError) -> RGBImage {
        let bytes = Array(art.data)
        let decoded = try ImageDecoder().decode(bytes)
        let source = decoded.packed()
        let channels = source.pixelFormat.channelCount
        let layout = try Renderer.layout(display: PixelSize(width: source.width, height: source.height), box: options.maximumSize,
                                         fitMode: options.fitMode, allowsUpscaling: options.allowsUpscaling)
        let visibleWidth = Double(source.width) * layout.visibleFraction.width
        let visibleHeight = Double(source.height) * layout.visibleFraction.height
        let region = CropRectangle(x: (Double(source.width) - visibleWidth) / 2, y: (Double(source.height) - visibleHeight) / 2,
                                   width: visibleWidth, height: visibleHeight)
        let size = layout.content
        var output = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for channel in 0..<3 {
            let sourceChannel = min(channel, channels - 1)
            var plane = [UInt8](repeating: 0, count: source.width * source.height)
            for index in 0..<(source.width * source.height) {
                plane[index] = source.pixels[index * channels * source.pixelFormat.bytesPerSample + sourceChannel * source.pixelFormat.bytesPerSample]
            }
            let scaled = try AreaScaler.scale(DecodedFrame.Plane(width: source.width, height: source.height, bytesPerRow: source.width,
                                                                 data: plane),
                                              bytesPerSample: 1, region: region, to: size)
            for index in 0..<scaled.count {
                output[index * 3 + channel] = UInt8(max(0, min(255, scaled[index].rounded())))
            }
        }
        let image = RGBImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: output)
        if layout.canvas != layout.content {
            return image.placed(onBlackCanvasOf: layout.canvas, at: layout.contentOrigin)
        }
        return image
    }
}
