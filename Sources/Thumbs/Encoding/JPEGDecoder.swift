/// Reads JPEG files with libjpeg-turbo: for cover art, and for tests of `JPEGEncoder`.
public struct JPEGDecoder: Sendable {
    /// Images with more pixels are refused before any pixel memory is allocated.
    public var maximumPixelCount: Int

    /// A decoder that refuses images above `maximumPixelCount` pixels (default 8192 x 8192).
    public init(maximumPixelCount: Int = 1 << 26) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The `.rgb8` image.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes that are not a readable JPEG, or an image that is too large.
    public func decode(_ bytes: [UInt8]) throws(ThumbnailError) -> RGBImage {
        try TurboJPEG.decompress(bytes, maximumPixelCount: maximumPixelCount)
    }
}
