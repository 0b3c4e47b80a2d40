/// Reads PNG (libpng's simplified API), JPEG (libjpeg-turbo) and WebP (libwebp) files, told apart by their
/// signatures: for cover art, whose declared type is not always the bytes', and for tests that load images back.
public struct ImageDecoder: Sendable {
    /// Images with more pixels are refused before any pixel memory is allocated.
    public var maximumPixelCount: Int

    /// A decoder that refuses images above `maximumPixelCount` pixels (default 8192 x 8192).
    public init(maximumPixelCount: Int = 1 << 26) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The image. A PNG gives `.rgba8` when it has alpha, `.rgb16` when it is 16-bit without alpha (as linear light),
    /// else `.rgb8`; a JPEG gives `.rgb8`; a WebP `.rgba8` when it has alpha, else `.rgb8`.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes that start as none of the three, are not readable as the one
    ///   they start as (a WebP animation included), or hold an image that is too large.
    public func decode(_ bytes: [UInt8]) throws(ThumbnailError) -> RGBImage {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try LibPNG.decode(bytes, maximumPixelCount: maximumPixelCount)
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try TurboJPEG.decompress(bytes, maximumPixelCount: maximumPixelCount)
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return try LibWebP.decode(bytes, maximumPixelCount: maximumPixelCount)
        }
        let start = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
        throw ThumbnailError(.invalidImage, "the bytes are not a PNG, JPEG or WebP (they start with [\(start)])")
    }
}
