import MP4Box

/// A decoded picture, cropped, in Swift-owned memory (copied once out of the decoder's buffer).
public struct DecodedFrame: Sendable {
    /// One plane of samples.
    public struct Plane: Sendable {
        /// Width in samples.
        public var width: Int
        /// Height in rows.
        public var height: Int
        /// Bytes from one row to the next.
        public var bytesPerRow: Int
        /// The rows; 1 byte per sample for 8-bit, 2 (little-endian) above 8 bits.
        public var data: [UInt8]

        /// Makes a plane.
        public init(width: Int, height: Int, bytesPerRow: Int, data: [UInt8]) {
            self.width = width
            self.height = height
            self.bytesPerRow = bytesPerRow
            self.data = data
        }
    }

    /// Which field of an interlaced frame comes first in time.
    public enum FieldOrder: Sendable, Equatable {
        case topFieldFirst, bottomFieldFirst
    }

    /// The chroma subsampling.
    public enum ChromaFormat: Int, Sendable {
        case monochrome = 0, yuv420 = 1, yuv422 = 2, yuv444 = 3
    }

    /// Y, Cb, Cr (one plane for monochrome).
    public var planes: [Plane]
    /// Picture width after cropping.
    public var width: Int { planes.first?.width ?? 0 }
    /// Picture height after cropping.
    public var height: Int { planes.first?.height ?? 0 }
    /// Bits per sample.
    public var bitDepth: Int
    /// Chroma subsampling.
    public var chromaFormat: ChromaFormat
    /// Colour primaries, transfer, matrix and range: the colr box where it speaks, else the VUI; code point 2 where neither does.
    public var colour: ColourDescription
    /// The sample this picture came from (decode order).
    public var sampleIndex: Int
    /// Its presentation time in media timescale units, before the edit list (the sample's composition time).
    public var compositionTime: Int64
    /// The picture's alpha plane, at the luma plane's size and bit depth (0 transparent, the largest value opaque): the
    /// luma of its auxiliary alpha picture, where the movie has one and it was asked for; nil for an opaque picture.
    public var alpha: Plane?
    /// For an interlaced frame (two fields woven line by line, each from its own instant), which field comes first;
    /// nil for a progressive one. The renderer shows such a frame deinterlaced.
    public var fieldOrder: FieldOrder?

    /// Makes a frame (decoders do; tests and synthetic pictures may too).
    public init(planes: [Plane], bitDepth: Int, chromaFormat: ChromaFormat, colour: ColourDescription,
                sampleIndex: Int, compositionTime: Int64) {
        self.planes = planes
        self.bitDepth = bitDepth
        self.chromaFormat = chromaFormat
        self.colour = colour
        self.sampleIndex = sampleIndex
        self.compositionTime = compositionTime
    }

    /// The pixel format as ffmpeg names it: yuv420p, yuv420p10le, yuv444p, gray, ...
    public var pixelFormatName: String {
        let base: String = switch chromaFormat {
        case .monochrome: "gray"
        case .yuv420: "yuv420p"
        case .yuv422: "yuv422p"
        case .yuv444: "yuv444p"
        }
        return bitDepth > 8 ? base + "\(bitDepth)le" : base
    }

    /// The planes' rows back to back with no padding, as ffmpeg's `-f rawvideo` writes them.
    public func rawVideoBytes() -> [UInt8] {
        let bytesPerSample = bitDepth > 8 ? 2 : 1
        var output: [UInt8] = []
        output.reserveCapacity(planes.reduce(0) { $0 + $1.width * $1.height * bytesPerSample })
        for plane in planes {
            let rowBytes = plane.width * bytesPerSample
            for row in 0..<plane.height {
                let start = row * plane.bytesPerRow
                output.append(contentsOf: plane.data[start..<start + rowBytes])
            }
        }
        return output
    }
}
