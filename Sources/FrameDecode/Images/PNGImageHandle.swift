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
