/// Interleaved 8-bit RGB or RGBA pixels as a frame's planes: G, B and R (matrix 0, H.273's identity, the order the
/// renderer reads such planes in, as H.264 and HEVC store 4:4:4 RGB), and the alpha plane apart.
enum RGBPlanes {
    /// The G, B and R planes of `pixels` (`channels` 3 or 4 bytes per pixel, rows back to back).
    static func planes(interleaved pixels: [UInt8], width: Int, height: Int, channels: Int) -> [DecodedFrame.Plane] {
        [1, 2, 0].map { channel in plane(pixels, channel: channel, width: width, height: height, channels: channels) }
    }

    /// One channel of `pixels` as a plane.
    static func plane(_ pixels: [UInt8], channel: Int, width: Int, height: Int, channels: Int) -> DecodedFrame.Plane {
        var data = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { source in
            data.withUnsafeMutableBufferPointer { out in
                for index in 0..<min(out.count, source.count / channels) { out[index] = source[index * channels + channel] }
            }
        }
        return DecodedFrame.Plane(width: width, height: height, bytesPerRow: width, data: data)
    }
}
