/// Encodes images as PNG with libpng's simplified API.
///
/// `.rgb8` and `.rgba8` are written as 8-bit files tagged sRGB; `.rgb16` as a 16-bit file: a `keepsHDR` picture
/// tagged with its primaries and transfer (PQ or HLG) in a `cICP` chunk, one without a `signal` as libpng's simplified
/// writer tags it, linear (gAMA 1.0).
public struct PNGEncoder: ImageEncoder {
    /// An encoder.
    public init() {}

    /// `image/png`.
    public var mediaType: String { "image/png" }
    /// `png`.
    public var fileExtension: String { "png" }

    /// The PNG file of `image`.
    /// - Throws: `ThumbnailError` `encodingFailed` for an ill-formed image or when libpng fails.
    public func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        try LibPNG.encode(image)
    }
}
