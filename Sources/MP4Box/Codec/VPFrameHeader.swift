/// What a VP8 or VP9 key frame's header says of its picture (RFC 6386, section 9.1; the VP9 bitstream
/// specification, 6.2): its size, and for VP9 its bit depth, subsampling and colour space. Read before a decoder sees
/// the frame, to check its size against a limit (libvpx allocates by it).
public enum VPFrameHeader {
    /// The picture a key frame of VP8 (`vp9` false) or VP9 sets up; nil for a frame that is not a key frame (its size
    /// is the one set before).
    /// - Throws: `MP4Error` `malformed` for a key frame whose header is cut short or has no start code.
    public static func parse(_ frame: some Collection<UInt8>, vp9: Bool) throws(MP4Error) -> VideoParameters? {
        vp9 ? try parseVP9(frame) : try parseVP8(frame)
    }

    private static func parseVP8(_ frame: some Collection<UInt8>) throws(MP4Error) -> VideoParameters? {
        let bytes = Array(frame.prefix(10))
        guard let first = bytes.first, first & 1 == 0 else { return nil }  // bit 0 of the frame tag: 0 for a key frame
        guard bytes.count == 10, bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            throw MP4Error(.malformed, path: "vp08", offset: 0, "a VP8 key frame without its start code and size")
        }
        let width = Int(bytes[6]) | Int(bytes[7] & 0x3F) << 8
        let height = Int(bytes[8]) | Int(bytes[9] & 0x3F) << 8
        return parameters(width: width, height: height, chromaFormat: 1, bitDepth: 8, profile: Int(first >> 1 & 7), colour: nil)
    }

    private static func parseVP9(_ frame: some Collection<UInt8>) throws(MP4Error) -> VideoParameters? {
        var reader = BitReader(bytes: frame.prefix(32), name: "vp09 frame header")
        guard try reader.bits(2) == 2 else { throw MP4Error(.malformed, path: "vp09", offset: 0, "no VP9 frame marker") }
        let low = try reader.bits(1)
        let profile = Int(try reader.bits(1) << 1 | low)
        if profile == 3 { try reader.skip(1) }
        if try reader.flag() { return nil }  // show_existing_frame
        guard try reader.bits(1) == 0 else { return nil }  // frame_type: 0 is a key frame
        try reader.skip(2)  // show_frame, error_resilient_mode
        guard try reader.bits(24) == 0x49_8342 else {
            throw MP4Error(.malformed, path: "vp09", offset: 0, "a VP9 key frame without its sync code")
        }
        var bitDepth = 8
        if profile >= 2 { bitDepth = try reader.flag() ? 12 : 10 }
        let colourSpace = try reader.bits(3)
        var chromaFormat = 1
        var fullRange = true
        if colourSpace != 7 {  // not sRGB
            fullRange = try reader.flag()
            if profile == 1 || profile == 3 {
                let x = try reader.bits(1)
                let y = try reader.bits(1)
                chromaFormat = x == 1 ? (y == 1 ? 1 : 2) : 3
                try reader.skip(1)
            }
        } else {
            chromaFormat = 3
        }
        let width = Int(try reader.bits(16)) + 1
        let height = Int(try reader.bits(16)) + 1
        let matrix = [2, 5, 1, 6, 7, 9, 2, 0][Int(colourSpace)]
        let colour = ColourDescription(primaries: ColourDescription.unspecifiedCode, transfer: ColourDescription.unspecifiedCode,
                                       matrix: matrix, fullRange: fullRange)
        return parameters(width: width, height: height, chromaFormat: chromaFormat, bitDepth: bitDepth, profile: profile, colour: colour)
    }

    private static func parameters(width: Int, height: Int, chromaFormat: Int, bitDepth: Int, profile: Int,
                                   colour: ColourDescription?) -> VideoParameters {
        VideoParameters(codedWidth: width, codedHeight: height, cropLeft: 0, cropRight: 0, cropTop: 0, cropBottom: 0,
                        chromaFormat: chromaFormat, bitDepthLuma: bitDepth, bitDepthChroma: bitDepth, isInterlaced: false,
                        isMBAFF: false, sampleAspectRatio: nil, colour: colour, profile: profile, level: 0)
    }
}
