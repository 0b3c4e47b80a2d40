/// Encodes images as WebP with libwebp: lossy (VP8) at a quality, or lossless (VP8L). Reached through
/// `ImageFormat.webp(quality:lossless:)`, the one entry to encoding.
struct WebPEncoder: ImageEncoder {
    /// Quality 0...100 for lossy encoding (libwebp's scale); values outside are clamped. Unused when lossless.
    var quality: Int
    /// Whether every pixel is kept exactly (the colour under fully transparent pixels is cleared, as libwebp's
    /// lossless encoder does by default: no one sees it).
    var lossless: Bool

    var mediaType: String { "image/webp" }
    var fileExtension: String { "webp" }

    /// The WebP file of an 8-bit image; `.rgba8` keeps its alpha.
    /// - Throws: `ThumbnailError` `encodingFailed` for `.rgb16`, an ill-formed image, a side past 16,383, or when
    ///   libwebp fails.
    func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        try LibWebP.encode(image, quality: quality, lossless: lossless)
    }
}
