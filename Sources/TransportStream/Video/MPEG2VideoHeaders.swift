/// What a transport stream reader needs of MPEG-2 video's headers (ISO/IEC 13818-2, 6.2.2 and 6.2.3), each given as
/// the bytes after its start code prefix (`00 00 01`), its start code value first: the sequence header's picture size
/// and aspect ratio, the picture header's coding type.
public enum MPEG2VideoHeaders {
    /// The start code value of a sequence header.
    public static let sequenceHeader: UInt8 = 0xB3
    /// The start code value of an extension (sequence, display, picture coding...).
    public static let extensionStart: UInt8 = 0xB5
    /// The start code value of a picture header.
    public static let pictureStart: UInt8 = 0x00

    /// A picture's `picture_coding_type` (1 I, 2 P, 3 B) from its header unit; nil for another unit or too short a one.
    public static func pictureCodingType(_ unit: [UInt8]) -> UInt8? {
        guard unit.count >= 3, unit[0] == pictureStart else { return nil }
        // temporal_reference (10 bits), then picture_coding_type (3 bits).
        return unit[2] >> 3 & 0x07
    }

    /// Whether `unit` is a sequence extension (extension_start_code_identifier 1).
    public static func isSequenceExtension(_ unit: [UInt8]) -> Bool {
        unit.count >= 2 && unit[0] == extensionStart && unit[1] >> 4 == 1
    }

    /// A sequence header's picture size and pixel aspect ratio.
    public struct Sequence: Sendable, Equatable {
        /// `horizontal_size_value` and `vertical_size_value` (the low 12 bits; a sequence extension holds two more).
        public var width: Int
        public var height: Int
        /// The pixel aspect ratio the `aspect_ratio_information` gives (a display aspect of 4:3, 16:9 or 2.21:1 over
        /// the picture's size), reduced; nil for square pixels or a reserved value.
        public var pixelAspect: VideoPixelAspect?

        /// The sequence header `unit` reads as; nil for another unit, too short a one or a size of zero.
        public init?(_ unit: [UInt8]) {
            guard unit.count >= 5, unit[0] == MPEG2VideoHeaders.sequenceHeader else { return nil }
            width = Int(unit[1]) << 4 | Int(unit[2] >> 4)
            height = Int(unit[2] & 0x0F) << 8 | Int(unit[3])
            guard width > 0, height > 0 else { return nil }
            let display: (Int, Int)? = switch unit[4] >> 4 {
            case 2: (4, 3)
            case 3: (16, 9)
            case 4: (221, 100)
            default: nil
            }
            pixelAspect = display.flatMap { ratio in
                let horizontal = ratio.0 * height, vertical = ratio.1 * width
                let divisor = Self.greatestCommonDivisor(horizontal, vertical)
                return horizontal == vertical ? nil : VideoPixelAspect(horizontal: horizontal / divisor, vertical: vertical / divisor)
            }
        }

        private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
            b == 0 ? max(a, 1) : greatestCommonDivisor(b, a % b)
        }
    }
}
