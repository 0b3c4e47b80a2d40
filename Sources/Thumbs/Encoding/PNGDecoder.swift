/// Reads PNG files with libpng's simplified API: for cover art, and for tests that load reference images.
public struct PNGDecoder: Sendable {
    /// Images with more pixels are refused before any pixel memory is allocated.
    public var maximumPixelCount: Int

    /// A decoder that refuses images above `maximumPixelCount` pixels (default 8192 x 8192).
    public init(maximumPixelCount: Int = 1 << 26) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The image: `.rgba8` when the file has alpha, `.rgb16` when it is 16-bit without alpha (as linear light), else `.rgb8`.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes that are not a readable PNG, or an image that is too large.
    public func decode(_ bytes: [UInt8]) throws(ThumbnailError) -> RGBImage {
        try LibPNG.decode(bytes, maximumPixelCount: maximumPixelCount)
    }
}
