internal import CWebP

/// Every call into libwebp: the simple encoding API (`WebPEncodeRGB`, `WebPEncodeLosslessRGB` and their RGBA forms)
/// and the decoder (`WebPGetFeatures`, `WebPDecodeRGBInto`, `WebPDecodeRGBAInto`).
enum LibWebP {
    /// The WebP file of an 8-bit image: lossy at `quality` 0...100, or lossless (every pixel kept); `.rgba8` keeps its
    /// alpha.
    /// - Throws: `ThumbnailError` `encodingFailed` for a 16-bit or ill-formed image, a side past WebP's 16,383, or when
    ///   libwebp fails.
    static func encode(_ image: RGBImage, quality: Int, lossless: Bool) throws(ThumbnailError) -> [UInt8] {
        let (width, height, stride) = try image.eightBitEncoderInput(for: "webp")
        guard width <= WEBP_MAX_DIMENSION, height <= WEBP_MAX_DIMENSION else {
            throw ThumbnailError(.encodingFailed, "webp: \(image.width)x\(image.height) passes WebP's \(WEBP_MAX_DIMENSION) on a side")
        }
        let alpha = image.pixelFormat == .rgba8
        let factor = Float(min(max(quality, 0), 100))
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer { source -> Int in
            switch (lossless, alpha) {
            case (false, false): WebPEncodeRGB(source.baseAddress, width, height, stride, factor, &output)
            case (false, true): WebPEncodeRGBA(source.baseAddress, width, height, stride, factor, &output)
            case (true, false): WebPEncodeLosslessRGB(source.baseAddress, width, height, stride, &output)
            case (true, true): WebPEncodeLosslessRGBA(source.baseAddress, width, height, stride, &output)
            }
        }
        defer { WebPFree(output) }
        guard size > 0, let output else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp could not encode \(image.width)x\(image.height)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The image in a WebP file: `.rgba8` when it has alpha, else `.rgb8`.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes libwebp cannot read (animations included) or an image above
    ///   `maximumPixelCount`.
    static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(ThumbnailError) -> RGBImage {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else {
            throw ThumbnailError(.invalidImage, "webp: libwebp cannot read the header (status \(status.rawValue))")
        }
        guard features.has_animation == 0 else {
            throw ThumbnailError(.invalidImage, "webp: an animation, not one picture")
        }
        let width = Int(features.width), height = Int(features.height)
        guard width > 0, height > 0, width * height <= maximumPixelCount else {
            throw ThumbnailError(.invalidImage, "webp: \(width)x\(height) is more than \(maximumPixelCount) pixels")
        }
        let format: RGBImage.PixelFormat = features.has_alpha != 0 ? .rgba8 : .rgb8
        let stride = width * format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let decoded = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                format == .rgba8
                    ? WebPDecodeRGBAInto(source.baseAddress, source.count, target.baseAddress, target.count, Int32(stride))
                    : WebPDecodeRGBInto(source.baseAddress, source.count, target.baseAddress, target.count, Int32(stride))
            }
        }
        guard decoded != nil else { throw ThumbnailError(.invalidImage, "webp: libwebp could not decode the picture") }
        return RGBImage(width: width, height: height, pixelFormat: format, pixels: pixels)
    }

    /// The version of the libwebp encoder linked (`WebPGetEncoderVersion`: 0x010204 is 1.2.4).
    static var libraryVersion: String {
        let number = WebPGetEncoderVersion()
        return "\(number >> 16 & 0xFF).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }
}
