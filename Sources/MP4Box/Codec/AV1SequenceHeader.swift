/// Parses an AV1 sequence header OBU (AV1 specification, 5.5) as far as the largest frame size, the bit depth,
/// the chroma subsampling and the colour description.
public enum AV1SequenceHeader {
    /// Parses the payload of a sequence header OBU (the bytes after its header and size field).
    /// - Throws: `MP4Error` `malformed` for values the specification forbids, `needMoreBytes` when the header is cut off.
    public static func parse<C: Collection>(_ payload: C) throws(MP4Error) -> VideoParameters where C.Element == UInt8 {
        var bits = BitReader(bytes: payload, name: "av1 sequence header")
        let profile = Int(try bits.bits(3))
        guard profile <= 2 else {
            throw MP4Error(.malformed, path: "av1 sequence header", offset: 0, "seq_profile \(profile) is reserved")
        }
        try bits.skip(1)  // still_picture
        let reducedStillPictureHeader = try bits.flag()
        var level = 0
        if reducedStillPictureHeader {
            level = Int(try bits.bits(5))
        } else {
            let timingInfoPresent = try bits.flag()
            var decoderModelInfoPresent = false
            var bufferDelayLength = 0
            if timingInfoPresent {
                try bits.skip(64)  // num_units_in_display_tick, time_scale
                if try bits.flag() { try skipUVLC(&bits) }  // equal_picture_interval: num_ticks_per_picture_minus_1
                decoderModelInfoPresent = try bits.flag()
                if decoderModelInfoPresent {
                    bufferDelayLength = Int(try bits.bits(5)) + 1
                    try bits.skip(32 + 5 + 5)  // num_units_in_decoding_tick, the two time lengths
                }
            }
            let initialDisplayDelayPresent = try bits.flag()
            let operatingPoints = Int(try bits.bits(5)) + 1
            for point in 0..<operatingPoints {
                try bits.skip(12)  // operating_point_idc
                let pointLevel = Int(try bits.bits(5))
                if point == 0 { level = pointLevel }
                if pointLevel > 7 { try bits.skip(1) }  // seq_tier
                if decoderModelInfoPresent, try bits.flag() {
                    try bits.skip(2 * bufferDelayLength + 1)  // decoder and encoder buffer delays, low_delay_mode_flag
                }
                if initialDisplayDelayPresent, try bits.flag() { try bits.skip(4) }
            }
        }
        let widthBits = Int(try bits.bits(4)) + 1
        let heightBits = Int(try bits.bits(4)) + 1
        let maxWidth = Int(try bits.bits(widthBits)) + 1
        let maxHeight = Int(try bits.bits(heightBits)) + 1
        if !reducedStillPictureHeader, try bits.flag() {  // frame_id_numbers_present_flag
            try bits.skip(4 + 3)
        }
        try bits.skip(3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        if !reducedStillPictureHeader {
            try bits.skip(4)  // interintra and masked compound, warped motion, dual filter
            let orderHint = try bits.flag()
            if orderHint { try bits.skip(2) }  // jnt_comp, ref_frame_mvs
            var forceScreenContentTools = 2
            if !(try bits.flag()) { forceScreenContentTools = Int(try bits.bits(1)) }  // seq_choose_screen_content_tools
            if forceScreenContentTools > 0, !(try bits.flag()) { try bits.skip(1) }  // seq_choose_integer_mv
            if orderHint { try bits.skip(3) }  // order_hint_bits_minus_1
        }
        try bits.skip(3)  // enable_superres, enable_cdef, enable_restoration
        let colour = try readColourConfig(&bits, profile: profile)
        return VideoParameters(codedWidth: maxWidth, codedHeight: maxHeight, cropLeft: 0, cropRight: 0, cropTop: 0,
                               cropBottom: 0, chromaFormat: colour.chromaFormat, bitDepthLuma: colour.bitDepth,
                               bitDepthChroma: colour.bitDepth, isInterlaced: false, isMBAFF: false,
                               sampleAspectRatio: nil, colour: colour.description, profile: profile, level: level,
                               maxReorderPictures: 0)
    }

    /// color_config() (5.5.2): bit depth, subsampling as a chroma_format_idc, and the colour description.
    private static func readColourConfig(_ bits: inout BitReader, profile: Int) throws(MP4Error)
        -> (bitDepth: Int, chromaFormat: Int, description: ColourDescription) {
        var bitDepth = 8
        if try bits.flag() {  // high_bitdepth
            bitDepth = 10
            if profile == 2, try bits.flag() { bitDepth = 12 }  // twelve_bit
        }
        let monochrome = profile == 1 ? false : try bits.flag()
        var primaries = ColourDescription.unspecifiedCode
        var transfer = ColourDescription.unspecifiedCode
        var matrix = ColourDescription.unspecifiedCode
        if try bits.flag() {  // color_description_present_flag
            primaries = Int(try bits.bits(8))
            transfer = Int(try bits.bits(8))
            matrix = Int(try bits.bits(8))
        }
        let fullRange: Bool
        let chromaFormat: Int
        if monochrome {
            fullRange = try bits.flag()
            chromaFormat = 0
        } else if primaries == 1 && transfer == 13 && matrix == 0 {  // sRGB: full range 4:4:4, nothing coded
            fullRange = true
            chromaFormat = 3
        } else {
            fullRange = try bits.flag()
            var subsampling = (x: true, y: true)
            switch profile {
            case 0: break
            case 1: subsampling = (false, false)
            default:
                if bitDepth == 12 {
                    let x = try bits.flag()
                    subsampling = (x, x ? try bits.flag() : false)
                } else {
                    subsampling = (true, false)
                }
            }
            chromaFormat = !subsampling.x ? 3 : subsampling.y ? 1 : 2
        }
        let description = ColourDescription(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: fullRange)
        return (bitDepth, chromaFormat, description)
    }

    /// Skips a uvlc() code (4.10.3): leading zeros up to a one, then as many value bits (none past 31 zeros).
    private static func skipUVLC(_ bits: inout BitReader) throws(MP4Error) {
        var leadingZeros = 0
        while !(try bits.flag()) { leadingZeros += 1 }
        if leadingZeros < 32 { try bits.skip(leadingZeros) }
    }
}
