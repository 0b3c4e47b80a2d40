/// Parses an HEVC sequence parameter set (ITU-T H.265, 7.3.2.2): size, cropping, bit depth, the reorder depth, and
/// the VUI's aspect ratio and colour description.
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
        let pictureOrderBits = Int(try bits.ue(max: 12, "log2_max_pic_order_cnt_lsb_minus4")) + 4
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
        // VUI, when present: aspect ratio and colour (libde265 1.0 reports transfer characteristics from 18 up,
        // HLG among them, as unspecified: this reading is what keeps them). A VUI cut short leaves what was read.
        if (try? skipToVUI(&bits, pictureOrderBits: pictureOrderBits)) == true {
            try? VideoUsabilityInformation.read(&bits, into: &parameters)
        }
        return parameters
    }

    /// Reads the fields between the reorder depths and vui_parameters_present_flag; returns that flag.
    private static func skipToVUI(_ bits: inout BitReader, pictureOrderBits: Int) throws(MP4Error) -> Bool {
        for _ in 0..<6 { _ = try bits.ue(max: 32, "coding block and transform sizes") }
        if try bits.flag(), try bits.flag() {  // scaling_list_enabled_flag, sps_scaling_list_data_present_flag
            try skipScalingListData(&bits)
        }
        try bits.skip(2)  // amp_enabled_flag, sample_adaptive_offset_enabled_flag
        if try bits.flag() {  // pcm_enabled_flag
            try bits.skip(8)
            _ = try bits.ue(max: 32, "log2_min_pcm_luma_coding_block_size_minus3")
            _ = try bits.ue(max: 32, "log2_diff_max_min_pcm_luma_coding_block_size")
            try bits.skip(1)
        }
        let setCount = Int(try bits.ue(max: 64, "num_short_term_ref_pic_sets"))
        var deltaCounts: [Int] = []
        for index in 0..<setCount {
            deltaCounts.append(try skipShortTermReferenceSet(&bits, index: index, deltaCounts: deltaCounts))
        }
        if try bits.flag() {  // long_term_ref_pics_present_flag
            let count = Int(try bits.ue(max: 32, "num_long_term_ref_pics_sps"))
            for _ in 0..<count { try bits.skip(pictureOrderBits + 1) }
        }
        try bits.skip(2)  // sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag
        return try bits.flag()
    }

    /// scaling_list_data() (7.3.4).
    private static func skipScalingListData(_ bits: inout BitReader) throws(MP4Error) {
        for size in 0..<4 {
            for _ in stride(from: 0, to: 6, by: size == 3 ? 3 : 1) {
                guard try bits.flag() else {  // scaling_list_pred_mode_flag
                    _ = try bits.ue(max: 5, "scaling_list_pred_matrix_id_delta")
                    continue
                }
                let coefficients = min(64, 1 << (4 + (size << 1)))
                if size > 1 { _ = try bits.se() }
                for _ in 0..<coefficients { _ = try bits.se() }
            }
        }
    }

    /// st_ref_pic_set(index) of the SPS (7.3.7); returns its NumDeltaPocs, which a later predicted set reads.
    private static func skipShortTermReferenceSet(_ bits: inout BitReader, index: Int, deltaCounts: [Int]) throws(MP4Error) -> Int {
        if index > 0, try bits.flag() {  // inter_ref_pic_set_prediction_flag: predicted from the set before
            try bits.skip(1)  // delta_rps_sign
            _ = try bits.ue(max: 1 << 15, "abs_delta_rps_minus1")
            var count = 0
            for _ in 0...deltaCounts[index - 1] {
                let used = try bits.flag()
                let usesDelta = used ? true : try bits.flag()
                if used || usesDelta { count += 1 }
            }
            return count
        }
        let negative = Int(try bits.ue(max: 16, "num_negative_pics"))
        let positive = Int(try bits.ue(max: 16, "num_positive_pics"))
        for _ in 0..<(negative + positive) {
            _ = try bits.ue(max: 1 << 15, "delta_poc_minus1")
            try bits.skip(1)
        }
        return negative + positive
    }
}
