package import CPNG

/// Owns one libpng simplified-API `png_image`; `deinit` frees what libpng still holds for it. The one owner of libpng
/// images in the package: PNG frames here, thumbnails' PNG files and cover art in Thumbs.
///
/// Only the simplified `png_image_*` API is used: libpng reports errors in the
/// struct instead of longjmp-ing across Swift frames.
package final class PNGImageHandle {
    package var image: png_image

    package init() {
        image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
    }

    deinit {
        png_image_free(&image)
    }

    /// libpng's message for the last warning or error.
    package var message: String {
        withUnsafeBytes(of: image.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension PNGImageHandle {
    /// Starts reading the PNG file `bytes`: `image` then holds its size and format. False when libpng refuses it
    /// (`message` says why).
    package func beginReading(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) } != 0
    }

    /// The image's samples in `format` (PNG_FORMAT_FLAG_*: `channels` samples a pixel of `bytesPerSample` bytes, 16-bit
    /// ones native-endian), rows back to back; nil when libpng fails (`message` says why). The caller has checked the
    /// size against its limits.
    package func finishReading(format: UInt32, channels: Int, bytesPerSample: Int) -> [UInt8]? {
        let (width, height) = (Int(image.width), Int(image.height))
        guard let stride = Int32(exactly: width * channels) else { return nil }
        image.format = format
        var samples = [UInt8](repeating: 0, count: width * height * channels * bytesPerSample)
        let finished = samples.withUnsafeMutableBytes { out in png_image_finish_read(&image, nil, out.baseAddress, stride, nil) }
        return finished != 0 ? samples : nil
    }
}
