import FrameDecode
import Foundation

extension ThumbHash {
    /// The largest side of a picture `init(rgba:width:height:)` takes: more adds work and nothing to the hash.
    public static let maximumSide = 100

    /// The ThumbHash of a picture of `width` x `height` pixels (each side 1 to `maximumSide`), `rgba` holding 4 bytes
    /// a pixel (red, green, blue, straight alpha), rows top to bottom. The same bytes as the reference encoder's.
    /// - Throws: `ThumbnailError` `invalidImage` for a side outside 1...100 or a pixel count that is not `rgba`'s.
    public init(rgba: [UInt8], width: Int, height: Int) throws(ThumbnailError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw ThumbnailError(.invalidImage, "a thumbhash is made from at most 100x100 pixels, not \(width)x\(height)")
        }
        guard rgba.count == width * height * 4 else {
            throw ThumbnailError(.invalidImage, "\(width)x\(height) rgba pixels are \(width * height * 4) bytes, not \(rgba.count)")
        }
        let pixelCount = width * height
        // The average colour, weighted by alpha: what transparent pixels are composited over.
        var average = (red: 0.0, green: 0.0, blue: 0.0, alpha: 0.0)
        for pixel in 0..<pixelCount {
            let alpha = Double(rgba[4 * pixel + 3]) / 255
            average.red += alpha / 255 * Double(rgba[4 * pixel])
            average.green += alpha / 255 * Double(rgba[4 * pixel + 1])
            average.blue += alpha / 255 * Double(rgba[4 * pixel + 2])
            average.alpha += alpha
        }
        if average.alpha > 0 {
            average.red /= average.alpha
            average.green /= average.alpha
            average.blue /= average.alpha
        }
        let hasAlpha = average.alpha < Double(pixelCount)
        let longSideTerms = hasAlpha ? 5 : 7
        let longestSide = max(width, height)
        let columns = max(1, Int((Double(longSideTerms * width) / Double(longestSide)).rounded()))
        let rows = max(1, Int((Double(longSideTerms * height) / Double(longestSide)).rounded()))

        // L (luminance), P (yellow - blue), Q (red - green) and alpha, each pixel composited over the average.
        var channels = Channels(count: pixelCount)
        for pixel in 0..<pixelCount {
            let alpha = Double(rgba[4 * pixel + 3]) / 255
            let red = average.red * (1 - alpha) + alpha / 255 * Double(rgba[4 * pixel])
            let green = average.green * (1 - alpha) + alpha / 255 * Double(rgba[4 * pixel + 1])
            let blue = average.blue * (1 - alpha) + alpha / 255 * Double(rgba[4 * pixel + 2])
            channels.luminance[pixel] = (red + green + blue) / 3
            channels.yellowBlue[pixel] = (red + green) / 2 - blue
            channels.redGreen[pixel] = red - green
            channels.alpha[pixel] = alpha
        }

        let transform = CosineTransform(width: width, height: height)
        let luminance = transform.terms(of: channels.luminance, columns: max(3, columns), rows: max(3, rows))
        let yellowBlue = transform.terms(of: channels.yellowBlue, columns: 3, rows: 3)
        let redGreen = transform.terms(of: channels.redGreen, columns: 3, rows: 3)
        let isLandscape = width > height
        let header24 = Self.quantize(63 * luminance.dc, bits: 6)
            | Self.quantize(31.5 + 31.5 * yellowBlue.dc, bits: 6) << 6
            | Self.quantize(31.5 + 31.5 * redGreen.dc, bits: 6) << 12
            | Self.quantize(31 * luminance.scale, bits: 5) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? rows : columns)
            | Self.quantize(63 * yellowBlue.scale, bits: 6) << 3
            | Self.quantize(63 * redGreen.scale, bits: 6) << 9
            | (isLandscape ? 1 << 15 : 0)
        var bytes: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16),
                              UInt8(header16 & 255), UInt8(header16 >> 8)]
        var terms = luminance.ac + yellowBlue.ac + redGreen.ac
        if hasAlpha {
            let alpha = transform.terms(of: channels.alpha, columns: 5, rows: 5)
            bytes.append(UInt8(Self.quantize(15 * alpha.dc, bits: 4) | Self.quantize(15 * alpha.scale, bits: 4) << 4))
            terms += alpha.ac
        }
        // Four bits a term, the first of each pair in the low nibble.
        bytes += [UInt8](repeating: 0, count: (terms.count + 1) / 2)
        let start = hasAlpha ? 6 : 5
        for (index, term) in terms.enumerated() {
            bytes[start + index / 2] |= UInt8(Self.quantize(15 * term, bits: 4) << (index % 2 * 4))
        }
        self.bytes = bytes
    }

    /// The ThumbHash of `image`, first area-averaged to fit 100 x 100 (never enlarged) and brought to 8 bits.
    /// - Throws: `ThumbnailError` `invalidImage` when the image has no pixels or its rows do not fit its bytes.
    public init(image: RGBImage) throws(ThumbnailError) {
        guard image.width > 0, image.height > 0, image.isWellFormed else {
            throw ThumbnailError(.invalidImage, "a \(image.width)x\(image.height) image whose rows do not fit its \(image.pixels.count) bytes")
        }
        let scale = min(1, Double(Self.maximumSide) / Double(max(image.width, image.height)))
        let width = max(1, Int((Double(image.width) * scale).rounded()))
        let height = max(1, Int((Double(image.height) * scale).rounded()))
        try self.init(rgba: try Self.rgba(of: image, width: width, height: height), width: width, height: height)
    }

    /// `image` area-averaged to `width` x `height`, 8-bit RGBA (opaque where the image has no alpha).
    private static func rgba(of image: RGBImage, width: Int, height: Int) throws(ThumbnailError) -> [UInt8] {
        let format = image.pixelFormat
        let channelCount = format.channelCount
        let bytesPerSample = format.bytesPerSample
        let maximumCode = Float(bytesPerSample == 2 ? 65535 : 255)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for channel in 0..<channelCount {
            let samples = [UInt8](unsafeUninitializedCapacity: image.width * image.height * bytesPerSample) { out, count in
                image.pixels.withUnsafeBufferPointer { pixels in
                    var next = 0
                    for y in 0..<image.height {
                        var source = y * image.bytesPerRow + channel * bytesPerSample
                        for _ in 0..<image.width {
                            for byte in 0..<bytesPerSample { out[next + byte] = pixels[source + byte] }
                            next += bytesPerSample
                            source += channelCount * bytesPerSample
                        }
                    }
                    count = next
                }
            }
            let plane = DecodedFrame.Plane(width: image.width, height: image.height,
                                           bytesPerRow: image.width * bytesPerSample, data: samples)
            let region = CropRectangle(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
            let scaled = try AreaScaler.scale(plane, bytesPerSample: bytesPerSample, region: region,
                                              to: PixelSize(width: width, height: height))
            for (pixel, value) in scaled.enumerated() {
                rgba[pixel * 4 + channel] = UInt8((min(max(value / maximumCode, 0), 1) * 255).rounded())
            }
        }
        return rgba
    }

    /// `value` rounded half up, as the reference's `Math.round`, kept within `bits` (a value from a valid picture is).
    private static func quantize(_ value: Double, bits: Int) -> Int {
        Int(min(max(value.rounded(.toNearestOrAwayFromZero), 0), Double((1 << bits) - 1)))
    }

    /// The four channels of the picture, one value a pixel.
    private struct Channels {
        var luminance: [Double]
        var yellowBlue: [Double]
        var redGreen: [Double]
        var alpha: [Double]

        init(count: Int) {
            luminance = [Double](repeating: 0, count: count)
            yellowBlue = luminance
            redGreen = luminance
            alpha = luminance
        }
    }

    /// The cosine terms of channels of a `width` x `height` picture.
    private struct CosineTransform {
        let width: Int
        let height: Int

        /// The DC term, the AC terms (in `ThumbHash.terms` order) mapped from -scale...scale to 0...1, and the scale:
        /// the largest AC magnitude.
        func terms(of channel: [Double], columns: Int, rows: Int) -> (dc: Double, ac: [Double], scale: Double) {
            let dc = term(of: channel, x: 0, y: 0)
            var ac = ThumbHash.terms(columns: columns, rows: rows).map { term(of: channel, x: $0.x, y: $0.y) }
            let scale = ac.reduce(0) { max($0, abs($1)) }
            if scale > 0 {
                ac = ac.map { 0.5 + 0.5 / scale * $0 }
            }
            return (dc, ac, scale)
        }

        /// The mean of the channel times cos(pi x (column + 1/2) / width) cos(pi y (row + 1/2) / height).
        private func term(of channel: [Double], x: Int, y: Int) -> Double {
            let columnFactors = (0..<width).map { cos(Double.pi / Double(width) * Double(x) * (Double($0) + 0.5)) }
            var sum = 0.0
            for row in 0..<height {
                let rowFactor = cos(Double.pi / Double(height) * Double(y) * (Double(row) + 0.5))
                for column in 0..<width {
                    sum += channel[column + row * width] * columnFactors[column] * rowFactor
                }
            }
            return sum / Double(width * height)
        }
    }
}
