/// Encodes images in the formats that are lossy at a quality or lossless: WebP with libwebp (VP8, or VP8L without
/// loss, which clears the colour under fully transparent pixels as libwebp does by default: no one sees it) and AVIF
/// with libavif (AV1; an HDR picture as 10-bit with its colours, `LibAvif.encode(_:quality:lossless:)`). Reached
/// through `ImageFormat.webp(quality:lossless:)` and `ImageFormat.avif(quality:lossless:)`, the one entry to encoding.
struct QualityOrLosslessEncoder: ImageEncoder {
    /// The library that writes the file.
    enum Library {
        case libwebp, libavif
    }

    var library: Library
    /// Quality 0...100 for lossy encoding (libwebp's scale; libavif's quantizers mapped onto it); values outside are
    /// clamped. Unused when lossless.
    var quality: Int
    /// Whether every pixel is kept exactly (of AVIF: of an 8-bit picture; a 16-bit one is written in 10 bits).
    var lossless: Bool

    var mediaType: String { library == .libwebp ? "image/webp" : "image/avif" }
    var fileExtension: String { library == .libwebp ? "webp" : "avif" }

    /// The file of `image`: WebP of an 8-bit image (`.rgba8` keeps its alpha), AVIF of any.
    /// - Throws: `ThumbnailError` `encodingFailed` (`LibWebP.encode(_:quality:lossless:)`,
    ///   `LibAvif.encode(_:quality:lossless:)`).
    func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        switch library {
        case .libwebp: try LibWebP.encode(image, quality: quality, lossless: lossless)
        case .libavif: try LibAvif.encode(image, quality: quality, lossless: lossless)
        }
    }
}
