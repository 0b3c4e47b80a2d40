/// AV1 pieces written bit by bit from the AV1 specification (5.3 OBU syntax, 5.5 sequence header), for tests that
/// need a sequence header or an av01 entry that no encoder makes: huge frame sizes, other profiles, colour codes.
extension SyntheticMovie {
    /// A sequence header OBU (with its header and size field) of a full (not reduced) header with one operating point
    /// at `level`, no timing info, and the given profile, largest frame size, bit depth (8, 10, or 12 in profile 2),
    /// monochrome flag and colour description (code points and the colour range flag).
    public static func av1SequenceHeader(profile: Int = 0, level: Int = 8, width: Int = 64, height: Int = 48,
                                         bitDepth: Int = 8, monochrome: Bool = false,
                                         colour: (primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool)? = nil)
        -> [UInt8] {
        func field(_ value: Int, _ width: Int) -> String { String(value, radix: 2).leftPadded(width) }
        var bits = field(profile, 3) + "0" + "0"        // seq_profile, still_picture, reduced_still_picture_header
        bits += "0" + "0" + field(0, 5)                  // no timing info, no initial display delay, one operating point
        bits += field(0, 12) + field(level, 5)           // operating_point_idc, seq_level_idx
        if level > 7 { bits += "0" }                     // seq_tier
        bits += field(15, 4) + field(15, 4)              // frame_width_bits_minus_1, frame_height_bits_minus_1
        bits += field(width - 1, 16) + field(height - 1, 16)
        bits += "0"                                      // frame_id_numbers_present_flag
        bits += "000" + "0000"                           // superblock size, filter intra, intra edge; compound, warp, dual filter
        bits += "1" + "0" + "0"                          // enable_order_hint, enable_jnt_comp, enable_ref_frame_mvs
        bits += "1" + "1" + field(6, 3)                  // seq_choose_screen_content_tools, seq_choose_integer_mv, order hint bits
        bits += "000"                                    // superres, cdef, restoration
        bits += bitDepth > 8 ? "1" : "0"                 // high_bitdepth
        if profile == 2, bitDepth > 8 { bits += bitDepth == 12 ? "1" : "0" }  // twelve_bit
        if profile != 1 { bits += monochrome ? "1" : "0" }
        if let colour {
            bits += "1" + [colour.primaries, colour.transfer, colour.matrix].map { field(Int($0), 8) }.joined()
        } else {
            bits += "0"
        }
        let isSRGB = colour.map { $0.primaries == 1 && $0.transfer == 13 && $0.matrix == 0 } ?? false
        if isSRGB {
            bits += "0"                                  // 4:4:4 full range, not coded: separate_uv_delta_q only
        } else {
            bits += colour?.fullRange == true ? "1" : "0"  // color_range
        }
        if !monochrome && !isSRGB {
            if profile == 2, bitDepth == 12 { bits += "11" }  // subsampling_x, subsampling_y: 4:2:0
            if profile == 0 || (profile == 2 && bitDepth == 12) { bits += "00" }  // chroma_sample_position
            bits += "0"                                  // separate_uv_delta_q
        }
        bits += "0" + "1"                                // film_grain_params_present, trailing one bit
        let payload = bytes(fromBits: bits)
        return [0x0A, UInt8(payload.count)] + payload    // obu_type 1 with a size field; payloads here are < 128 bytes
    }

    /// An av01 entry of a 64x48 picture whose av1C holds `configOBUs` (a sequence header, or nothing).
    public static func av01Entry(configOBUs: [UInt8], profile: Int = 0, level: Int = 8, bitDepth: Int = 8) -> [UInt8] {
        let flags = (bitDepth > 8 ? 0x40 : 0) | (bitDepth == 12 ? 0x20 : 0) | 0x0C  // high depth, twelve bit, 4:2:0
        let record: [UInt8] = [0x81, UInt8(profile << 5 | level), UInt8(flags), 0] + configOBUs
        return visualEntry("av01", children: BoxBuilder.box("av1C", record))
    }
}
