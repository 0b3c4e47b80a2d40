/// What a transport stream reader needs of MPEG-4 Part 2 video's headers (ISO/IEC 14496-2, 6.2), each given as the
/// bytes after its start code prefix (`00 00 01`), its start code value first: the video object layer's picture size
/// and pixel aspect ratio, and a video object plane's coding type.
public enum MPEG4VisualHeaders {
    /// The start code value of a video object plane (a picture).
    public static let objectPlane: UInt8 = 0xB6
    /// The start code value of a group of VOPs.
    public static let groupOfPlanes: UInt8 = 0xB3
    /// The start code values of video object layers.
    public static let objectLayers: ClosedRange<UInt8> = 0x20 ... 0x2F

    /// A picture's `vop_coding_type` (0 I, 1 P, 2 B, 3 S) from its VOP unit; nil for another unit.
    public static func planeCodingType(_ unit: [UInt8]) -> UInt8? {
        guard unit.count >= 2, unit[0] == objectPlane else { return nil }
        return unit[1] >> 6
    }

    /// A video object layer's rectangular picture size and pixel aspect ratio.
    public struct ObjectLayer: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// The pixel aspect ratio (`aspect_ratio_info`, or its extended PAR); nil for square pixels.
        public var pixelAspect: VideoPixelAspect?

        /// The layer `unit` reads as (its start code value first); nil for another unit, a shape that is not
        /// rectangular, a missing marker bit, or too short a unit.
        public init?(_ unit: [UInt8]) {
            guard let value = unit.first, MPEG4VisualHeaders.objectLayers.contains(value) else { return nil }
            var bits = Bits(unit.dropFirst())
            guard let layer = Self.read(&bits) else { return nil }
            self = layer
        }

        private init(width: Int, height: Int, pixelAspect: VideoPixelAspect?) {
            self.width = width
            self.height = height
            self.pixelAspect = pixelAspect
        }

        private static func read(_ bits: inout Bits) -> ObjectLayer? {
            guard bits.skip(1 + 8) else { return nil }  // random_accessible_vol, video_object_type_indication
            var verid = 1
            guard let identified = bits.read(1) else { return nil }
            if identified == 1 {
                guard let read = bits.read(4), bits.skip(3) else { return nil }
                verid = read
            }
            guard let aspectInfo = bits.read(4) else { return nil }
            var aspect: (Int, Int) = [1: (1, 1), 2: (12, 11), 3: (10, 11), 4: (16, 11), 5: (40, 33)][aspectInfo] ?? (1, 1)
            if aspectInfo == 0xF {
                guard let horizontal = bits.read(8), let vertical = bits.read(8), horizontal > 0, vertical > 0 else { return nil }
                aspect = (horizontal, vertical)
            }
            guard let control = bits.read(1) else { return nil }
            if control == 1 {
                guard bits.skip(2 + 1), let vbv = bits.read(1) else { return nil }  // chroma_format, low_delay
                if vbv == 1, !bits.skip(15 + 1 + 15 + 1 + 15 + 1 + 3 + 11 + 1 + 15 + 1) { return nil }
            }
            guard let shape = bits.read(2) else { return nil }
            if shape == 3, verid != 1, !bits.skip(4) { return nil }
            guard shape == 0, bits.read(1) == 1, let resolution = bits.read(16), bits.read(1) == 1,
                  let fixedRate = bits.read(1) else { return nil }
            if fixedRate == 1 {
                // fixed_vop_time_increment: as many bits as resolution - 1 needs, one at least.
                let incrementBits = resolution > 1 ? Int.bitWidth - (resolution - 1).leadingZeroBitCount : 1
                guard bits.skip(incrementBits) else { return nil }
            }
            guard bits.read(1) == 1, let width = bits.read(13), bits.read(1) == 1, let height = bits.read(13),
                  bits.read(1) == 1, width > 0, height > 0 else { return nil }
            let square = aspect.0 == aspect.1
            return ObjectLayer(width: width, height: height,
                               pixelAspect: square ? nil : VideoPixelAspect(horizontal: aspect.0, vertical: aspect.1))
        }
    }

    /// Reads bits, most significant first, from bytes; a read past the end is nil.
    private struct Bits {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = Array(bytes) }

        mutating func read(_ count: Int) -> Int? {
            guard count <= 32, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0 ..< count {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            guard position + count <= bytes.count * 8 else { return false }
            position += count
            return true
        }
    }
}
