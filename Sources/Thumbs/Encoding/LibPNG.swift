internal import CPNG
import FrameDecode

/// Every call into libpng.
enum LibPNG {
    /// The PNG file of `image` (8-bit RGB or RGBA, or 16-bit RGB: with a `signal`, tagged with it in a cICP chunk;
    /// without, as libpng tags it, linear, gAMA 1.0).
    /// - Throws: `ThumbnailError` `encodingFailed` for an ill-formed image or when libpng fails.
    static func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        guard image.isWellFormed, image.bytesPerRow % image.pixelFormat.bytesPerSample == 0,
              let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height),
              let stride = Int32(exactly: image.bytesPerRow / image.pixelFormat.bytesPerSample) else {
            throw ThumbnailError(.encodingFailed, "png: a \(image.width)x\(image.height) \(image.pixelFormat) image "
                                 + "with \(image.bytesPerRow) bytes per row and \(image.pixels.count) bytes is not well formed")
        }
        let handle = PNGImageHandle()
        handle.image.width = width
        handle.image.height = height
        handle.image.format = switch image.pixelFormat {
        case .rgb8: PNG_FORMAT_FLAG_COLOR
        case .rgba8: PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
        case .rgb16: PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_LINEAR
        }
        var pixels = image.pixels
        #if _endian(big)
        if image.pixelFormat == .rgb16 {
            // libpng wants native-endian png_uint_16; RGBImage holds little-endian.
            for index in stride(from: 0, to: pixels.count - 1, by: 2) { pixels.swapAt(index, index + 1) }
        }
        #endif
        // Room for incompressible rows plus zlib and chunk overhead; libpng says how much more if that is short.
        var capacity = image.pixels.count + image.pixels.count / 8 + Int(height) + 4096
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var written = capacity
            let succeeded = output.withUnsafeMutableBytes { out in
                pixels.withUnsafeBytes { source in
                    png_image_write_to_memory(&handle.image, out.baseAddress, &written, 0, source.baseAddress, stride, nil)
                }
            }
            if succeeded != 0 {
                let file = Array(output[..<written])  // not the room left for incompressible rows
                guard image.pixelFormat == .rgb16, let signal = image.signal else { return file }
                return PNGColourChunk.tagging(file, with: signal)
            }
            guard written > capacity else { break }
            capacity = written
        }
        throw ThumbnailError(.encodingFailed, "png: libpng failed to write the image: \(handle.message)")
    }

    /// The image in a PNG file: `.rgba8` when it has alpha, `.rgb16` when it is 16-bit without alpha, else `.rgb8`.
    ///
    /// Grey and palette images are expanded to RGB. 16-bit samples come back
    /// as libpng's simplified reader gives them: linear light, so a file tagged
    /// with another gamma (or untagged, taken as sRGB) is converted.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes libpng cannot read or an image above `maximumPixelCount`.
    static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(ThumbnailError) -> RGBImage {
        let handle = PNGImageHandle()
        guard handle.beginReading(bytes) else {
            throw ThumbnailError(.invalidImage, "png: \(handle.message)")
        }
        let width = Int(handle.image.width)
        let height = Int(handle.image.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount > 0, pixelCount <= maximumPixelCount else {
            throw ThumbnailError(.invalidImage, "png: a \(width)x\(height) image is larger than \(maximumPixelCount) pixels")
        }
        let fileFormat = handle.image.format
        let (pixelFormat, format): (RGBImage.PixelFormat, UInt32) =
            fileFormat & PNG_FORMAT_FLAG_ALPHA != 0 ? (.rgba8, PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            : fileFormat & PNG_FORMAT_FLAG_LINEAR != 0 ? (.rgb16, PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_LINEAR)
            : (.rgb8, PNG_FORMAT_FLAG_COLOR)
        guard var pixels = handle.finishReading(format: format, channels: pixelFormat.channelCount,
                                                bytesPerSample: pixelFormat.bytesPerSample) else {
            throw ThumbnailError(.invalidImage, "png: \(handle.message)")
        }
        let rowBytes = width * pixelFormat.bytesPerPixel
        #if _endian(big)
        if pixelFormat == .rgb16 {
            for index in Swift.stride(from: 0, to: pixels.count - 1, by: 2) { pixels.swapAt(index, index + 1) }
        }
        #endif
        return RGBImage(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// The version of the libpng linked (`png_access_version_number`: 10639 is 1.6.39).
    static var libraryVersion: String {
        let number = png_access_version_number()
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
