internal import CAvif

/// Every call into libavif: one still picture encoded as AVIF (`avifImageRGBToYUV`, `avifEncoderWrite`).
enum LibAvif {
    /// The AV1 encoder's speed: libavif's fastest (10). A 320 px picture then costs about what libwebp's lossy
    /// encode of it costs (Benchmarks/README.md, "Image encoders").
    static let speed = Int32(AVIF_SPEED_FASTEST)

    /// The AVIF file of `image`. An 8-bit image is written as 8-bit 4:2:0 (4:4:4 and RGB, without loss, when
    /// `lossless`) tagged BT.709 primaries and the sRGB transfer, as the other formats' files are taken; `.rgba8` keeps
    /// its alpha. A `.rgb16` image with a `signal` (HDR kept) is written as 10-bit 4:4:4 in the signal's matrix, full
    /// range, its primaries, transfer and matrix in the file's colour information (CICP), so a display shows it as
    /// HDR. `quality` 0...100 maps linearly onto libavif's quantizers, 63 (0) to 0 (100).
    /// - Throws: `ThumbnailError` `encodingFailed` for an ill-formed image, a 16-bit image without a signal, a side past
    ///   65,536, or when libavif fails.
    static func encode(_ image: RGBImage, quality: Int, lossless: Bool) throws(ThumbnailError) -> [UInt8] {
        guard image.isWellFormed, let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height),
              width <= 65_536, height <= 65_536, let rowBytes = UInt32(exactly: image.bytesPerRow) else {
            throw ThumbnailError(.encodingFailed, "avif: a \(image.width)x\(image.height) \(image.pixelFormat) image "
                                 + "with \(image.bytesPerRow) bytes per row and \(image.pixels.count) bytes cannot be written")
        }
        let signal: (primaries: Int, transfer: Int, matrix: Int)
        let depth: UInt32
        if image.pixelFormat == .rgb16 {
            guard let tagged = image.signal else {
                throw ThumbnailError(.encodingFailed, "avif: a 16-bit image says nothing of what its values mean")
            }
            (signal, depth) = ((tagged.primaries, tagged.transfer, tagged.matrix), 10)
        } else {
            // BT.709 primaries, sRGB transfer, BT.601 matrix: what avifenc writes for an untagged 8-bit picture.
            (signal, depth) = ((1, 13, 6), 8)
        }
        let format = lossless || depth > 8 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let avif = avifImageCreate(width, height, depth, format) else {
            throw ThumbnailError(.encodingFailed, "avif: libavif could not make a \(width)x\(height) image")
        }
        defer { avifImageDestroy(avif) }
        avif.pointee.colorPrimaries = avifColorPrimaries(UInt16(clamping: signal.primaries))
        avif.pointee.transferCharacteristics = avifTransferCharacteristics(UInt16(clamping: signal.transfer))
        avif.pointee.matrixCoefficients = lossless ? avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
            : avifMatrixCoefficients(UInt16(clamping: signal.matrix))
        avif.pointee.yuvRange = AVIF_RANGE_FULL

        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif)
        rgb.format = image.pixelFormat == .rgba8 ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
        rgb.depth = image.pixelFormat == .rgb16 ? 16 : 8
        rgb.rowBytes = rowBytes
        var pixels = image.pixels
        #if _endian(big)
        if image.pixelFormat == .rgb16 {
            // libavif wants native-endian uint16_t; RGBImage holds little-endian.
            for index in stride(from: 0, to: pixels.count - 1, by: 2) { pixels.swapAt(index, index + 1) }
        }
        #endif
        let converted = pixels.withUnsafeMutableBufferPointer { buffer in
            rgb.pixels = buffer.baseAddress
            defer { rgb.pixels = nil }
            return avifImageRGBToYUV(avif, &rgb)
        }
        guard converted == AVIF_RESULT_OK else {
            throw ThumbnailError(.encodingFailed, "avif: libavif could not convert the picture: \(Self.text(of: converted))")
        }

        guard let encoder = avifEncoderCreate() else {
            throw ThumbnailError(.encodingFailed, "avif: libavif could not make an encoder")
        }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = lossless ? Int32(AVIF_QUANTIZER_LOSSLESS) : Self.quantizer(quality: quality)
        encoder.pointee.speed = speed
        encoder.pointee.maxThreads = 1
        (encoder.pointee.minQuantizer, encoder.pointee.maxQuantizer) = (quantizer, quantizer)
        (encoder.pointee.minQuantizerAlpha, encoder.pointee.maxQuantizerAlpha) = (quantizer, quantizer)
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        let written = avifEncoderWrite(encoder, avif, &output)
        guard written == AVIF_RESULT_OK, let bytes = output.data else {
            throw ThumbnailError(.encodingFailed, "avif: libavif could not encode \(width)x\(height): \(Self.text(of: written))")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }

    /// libavif's quantizer for `quality` 0...100 (clamped): 63 at 0, 0 at 100, rounded.
    static func quantizer(quality: Int) -> Int32 {
        let quality = min(max(quality, 0), 100)
        return Int32(((100 - quality) * Int(AVIF_QUANTIZER_WORST_QUALITY) + 50) / 100)
    }

    /// libavif's words for `result`.
    private static func text(of result: avifResult) -> String {
        avifResultToString(result).map { String(cString: $0) } ?? "result \(result.rawValue)"
    }

    /// The version of libavif linked, such as 0.11.1.
    static var libraryVersion: String {
        avifVersion().map { String(cString: $0) } ?? "unknown"
    }
}
