/// Encodes images as baseline JPEG with libjpeg-turbo.
public struct JPEGEncoder: ImageEncoder {
    /// How the encoder subsamples chroma.
    public enum ChromaSubsampling: Sendable, Equatable {
        /// Half width, half height (the usual choice for photographs and video frames).
        case yuv420
        /// Half width.
        case yuv422
        /// Full resolution.
        case yuv444
    }

    /// Quality 1...100 (libjpeg's scale); values outside are clamped.
    public var quality: Int
    /// Chroma subsampling.
    public var chromaSubsampling: ChromaSubsampling

    /// An encoder at `quality` (default 85).
    public init(quality: Int = 85, chromaSubsampling: ChromaSubsampling = .yuv420) {
        self.quality = quality
        self.chromaSubsampling = chromaSubsampling
    }

    /// `image/jpeg`.
    public var mediaType: String { "image/jpeg" }
    /// `jpg`.
    public var fileExtension: String { "jpg" }

    /// The JPEG file of an 8-bit image; the alpha of `.rgba8` is ignored.
    /// - Throws: `ThumbnailError` `encodingFailed` for `.rgb16` or an ill-formed image, or when libjpeg-turbo fails.
    public func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        try TurboJPEG.compress(image, quality: quality, subsampling: chromaSubsampling)
    }
}
