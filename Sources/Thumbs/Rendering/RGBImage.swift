import MP4Box

/// An RGB picture in memory, rows top to bottom, pixels left to right, ready for an encoder.
///
/// 8-bit formats hold one byte per sample. `.rgb16` holds two bytes per
/// sample, little-endian, 0...65535.
public struct RGBImage: Sendable, Equatable {
    /// The layout of one pixel.
    public enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
        /// Red, green, blue, one byte each.
        case rgb8
        /// Red, green, blue, alpha (straight, not premultiplied), one byte each.
        case rgba8
        /// Red, green, blue, two bytes each (little-endian): the HDR-keeping output.
        case rgb16

        /// Samples per pixel.
        public var channelCount: Int { self == .rgba8 ? 4 : 3 }
        /// Bytes per sample.
        public var bytesPerSample: Int { self == .rgb16 ? 2 : 1 }
        /// Bytes per pixel.
        public var bytesPerPixel: Int { channelCount * bytesPerSample }

        /// The name: rgb8, rgba8 or rgb16.
        public var description: String {
            switch self {
            case .rgb8: "rgb8"
            case .rgba8: "rgba8"
            case .rgb16: "rgb16"
            }
        }
    }

    /// Width in pixels.
    public var width: Int
    /// Height in rows.
    public var height: Int
    /// Bytes from the start of one row to the next (at least `width * pixelFormat.bytesPerPixel`).
    public var bytesPerRow: Int
    /// The layout of one pixel.
    public var pixelFormat: PixelFormat
    /// The rows.
    public var pixels: [UInt8]
    /// What the samples mean when they are not SDR R'G'B' shown as sRGB: of a `keepsHDR` picture (`.rgb16`), the
    /// movie's primaries, transfer (PQ or HLG) and matrix, full range; nil otherwise. The encoders that can say it in
    /// the file do: AVIF in its colour information, PNG in a `cICP` chunk.
    public var signal: ColourDescription?

    /// An image with tightly packed rows.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8]) {
        self.init(width: width, height: height, bytesPerRow: width * pixelFormat.bytesPerPixel,
                  pixelFormat: pixelFormat, pixels: pixels)
    }

    /// An image whose rows are `bytesPerRow` apart.
    public init(width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixelFormat = pixelFormat
        self.pixels = pixels
    }

    /// A black (and, for `.rgba8`, opaque) image.
    public init(black width: Int, height: Int, pixelFormat: PixelFormat) {
        let rowBytes = width * pixelFormat.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        if pixelFormat == .rgba8 {
            for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
        }
        self.init(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// Whether the sizes are positive and `pixels` holds every row.
    public var isWellFormed: Bool {
        guard width > 0, height > 0, bytesPerRow >= width * pixelFormat.bytesPerPixel else { return false }
        let (rows, overflow) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        return !overflow && rows + width * pixelFormat.bytesPerPixel <= pixels.count
    }

    /// The samples of pixel (`x`, `y`), widened to `Int` (0...255 or 0...65535).
    public func pixel(x: Int, y: Int) -> [Int] {
        let start = y * bytesPerRow + x * pixelFormat.bytesPerPixel
        return (0..<pixelFormat.channelCount).map { channel in
            if pixelFormat == .rgb16 {
                return Int(pixels[start + 2 * channel]) | Int(pixels[start + 2 * channel + 1]) << 8
            }
            return Int(pixels[start + channel])
        }
    }

    /// The same pixels with rows tightly packed (`bytesPerRow == width * bytesPerPixel`).
    public func packed() -> RGBImage {
        let rowBytes = width * pixelFormat.bytesPerPixel
        guard bytesPerRow != rowBytes else { return self }
        var rows = [UInt8]()
        rows.reserveCapacity(rowBytes * height)
        for row in 0..<height {
            rows.append(contentsOf: pixels[row * bytesPerRow..<row * bytesPerRow + rowBytes])
        }
        var packed = RGBImage(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: pixelFormat, pixels: rows)
        packed.signal = signal
        return packed
    }
}
