import Thumbs

extension RGBImage {
    /// The 8-bit red, green and blue of every pixel, rows packed, without an `.rgba8` image's alpha: what is compared
    /// with a reference decoded without alpha (ffmpeg's own VP8 and VP9 decoders drop it).
    var colourPixels: [UInt8] {
        let pixels = packed().pixels
        guard pixelFormat == .rgba8 else { return pixels }
        return pixels.indices.filter { $0 % 4 != 3 }.map { pixels[$0] }
    }
}
