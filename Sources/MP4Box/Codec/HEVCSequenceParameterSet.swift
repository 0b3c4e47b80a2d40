/// Parses an HEVC sequence parameter set (ITU-T H.265, 7.3.2.2) as far as size, cropping and bit depth.
public enum HEVCSequenceParameterSet {
    /// Parses the SPS NAL unit `nal` (with its two-byte NAL header).
    /// - Throws: `MP4Error` `malformed` or `needMoreBytes` when the SPS is cut off or out of range.
    public static func parse<C: Collection>(_ nal: C) throws(MP4Error) -> VideoParameters where C.Element == UInt8 {
        var bits = BitReader(nal: nal, headerBytes: 2, name: "sps")
        try bits.skip(4)  // sps_video_parameter_set_id
        let maxSubLayersMinus1 = Int(try bits.bits(3))
        try bits.skip(1)  // sps_temporal_id_nesting_flag
        // profile_tier_level(1, maxSubLayersMinus1)
        try bits.skip(3)  // general_profile_space, general_tier_flag
        let profile = Int(try bits.bits(5))
        try bits.skip(32 + 48)  // compatibility flags, constraint flags
        let level = Int(try bits.bits(8))
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try bits.flag())
            levelPresent.append(try bits.flag())
        }
        if maxSubLayersMinus1 > 0 {
            try bits.skip(2 * (8 - maxSubLayersMinus1))
        }
        for layer in 0..<maxSubLayersMinus1 {
            if profilePresent[layer] { try bits.skip(88) }
            if levelPresent[layer] { try bits.skip(8) }
        }
        _ = try bits.ue(max: 15, "sps_seq_parameter_set_id")
        let chromaFormat = Int(try bits.ue(max: 3, "chroma_format_idc"))
        var separateColourPlanes = false
        if chromaFormat == 3 { separateColourPlanes = try bits.flag() }
        let width = Int(try bits.ue(max: 1 << 16, "pic_width_in_luma_samples"))
        let height = Int(try bits.ue(max: 1 << 16, "pic_height_in_luma_samples"))
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if try bits.flag() {
            crop = (Int(try bits.ue()), Int(try bits.ue()), Int(try bits.ue()), Int(try bits.ue()))
        }
        let chromaArrayType = separateColourPlanes ? 0 : chromaFormat
        let subWidth = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
        let subHeight = chromaArrayType == 1 ? 2 : 1
        let bitDepthLuma = Int(try bits.ue(max: 8, "bit_depth_luma_minus8")) + 8
        let bitDepthChroma = Int(try bits.ue(max: 8, "bit_depth_chroma_minus8")) + 8
        _ = try bits.ue(max: 12, "log2_max_pic_order_cnt_lsb_minus4")
        let orderingForEveryLayer = try bits.flag()
        var maxReorder = 0
        for _ in (orderingForEveryLayer ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
            _ = try bits.ue(max: 16, "sps_max_dec_pic_buffering_minus1")
            maxReorder = Int(try bits.ue(max: 16, "sps_max_num_reorder_pics"))
            _ = try bits.ue()  // sps_max_latency_increase_plus1
        }
        var parameters = VideoParameters(
            codedWidth: width, codedHeight: height,
            cropLeft: crop.left * subWidth, cropRight: crop.right * subWidth,
            cropTop: crop.top * subHeight, cropBottom: crop.bottom * subHeight,
            chromaFormat: chromaFormat, bitDepthLuma: bitDepthLuma, bitDepthChroma: bitDepthChroma,
            isInterlaced: false, isMBAFF: false, sampleAspectRatio: nil, colour: nil,
            profile: profile, level: level)
        guard parameters.width > 0, parameters.height > 0 else {
            throw MP4Error(.malformed, path: "sps", offset: 0, "conformance window leaves no picture")
        }
        parameters.maxReorderPictures = maxReorder
        return parameters
    }
}
