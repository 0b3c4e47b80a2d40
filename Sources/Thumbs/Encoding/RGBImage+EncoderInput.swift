extension RGBImage {
    /// The width, height and row stride as a C encoder takes them, for an 8-bit image.
    /// - Throws: `ThumbnailError` `encodingFailed`, naming `codec`, for a 16-bit image or one that is not well formed.
    func eightBitEncoderInput(for codec: String) throws(ThumbnailError) -> (width: Int32, height: Int32, stride: Int32) {
        guard pixelFormat != .rgb16 else {
            throw ThumbnailError(.encodingFailed, "\(codec): holds 8-bit samples only, not \(pixelFormat)")
        }
        guard isWellFormed, let width = Int32(exactly: width), let height = Int32(exactly: height),
              let stride = Int32(exactly: bytesPerRow) else {
            throw ThumbnailError(.encodingFailed, "\(codec): a \(width)x\(height) \(pixelFormat) image "
                                 + "with \(bytesPerRow) bytes per row and \(pixels.count) bytes is not well formed")
        }
        return (width, height, stride)
    }
}
