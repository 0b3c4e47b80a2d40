/// Parses an H.264 sequence parameter set (ITU-T H.264, 7.3.2.1.1 and E.1.1) as far as the picture needs.
public enum H264SequenceParameterSet {
    /// Parses the SPS NAL unit `nal` (with its one-byte NAL header).
    /// - Throws: `MP4Error` `malformed` or `needMoreBytes` when the SPS is cut off or out of range.
    public static func parse<C: Collection>(_ nal: C) throws(MP4Error) -> VideoParameters where C.Element == UInt8 {
        var bits = BitReader(nal: nal, headerBytes: 1, name: "sps")
        let head = try readHead(&bits)
        let chromaFormat = head.chromaFormat
        try bits.skip(1)  // gaps_in_frame_num_value_allowed_flag
        let widthInMBs = Int(try bits.ue(max: 1 << 16, "pic_width_in_mbs_minus1")) + 1
        let heightInMapUnits = Int(try bits.ue(max: 1 << 16, "pic_height_in_map_units_minus1")) + 1
        let frameMBsOnly = try bits.flag()
        let mbaff = frameMBsOnly ? false : try bits.flag()
        try bits.skip(1)  // direct_8x8_inference_flag
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if try bits.flag() {
            crop = (Int(try bits.ue()), Int(try bits.ue()), Int(try bits.ue()), Int(try bits.ue()))
        }
        let chromaArrayType = head.separateColourPlanes ? 0 : chromaFormat
        let cropUnitX = chromaArrayType == 0 ? 1 : (chromaFormat == 3 ? 1 : 2)
        let cropUnitY = (chromaArrayType == 0 ? 1 : (chromaFormat == 1 ? 2 : 1)) * (frameMBsOnly ? 1 : 2)
        var parameters = VideoParameters(
            codedWidth: widthInMBs * 16, codedHeight: heightInMapUnits * 16 * (frameMBsOnly ? 1 : 2),
            cropLeft: crop.left * cropUnitX, cropRight: crop.right * cropUnitX,
            cropTop: crop.top * cropUnitY, cropBottom: crop.bottom * cropUnitY,
            chromaFormat: chromaFormat, bitDepthLuma: head.bitDepthLuma, bitDepthChroma: head.bitDepthChroma,
            isInterlaced: !frameMBsOnly, isMBAFF: mbaff, sampleAspectRatio: nil, colour: nil,
            profile: head.profile, level: head.level)
        guard parameters.width > 0, parameters.height > 0 else {
            throw MP4Error(.malformed, path: "sps", offset: 0, "cropping leaves no picture")
        }
        // VUI, when present: aspect ratio and colour. A VUI cut short leaves what was read.
        if (try? bits.flag()) == true {
            try? VideoUsabilityInformation.read(&bits, into: &parameters)
        }
        return parameters
    }

    /// The fields before gaps_in_frame_num_value_allowed_flag, and where max_num_ref_frames is (bits of the RBSP).
    private struct Head {
        var profile: Int
        var level: Int
        var identifier: Int
        var chromaFormat: Int
        var separateColourPlanes: Bool
        var bitDepthLuma: Int
        var bitDepthChroma: Int
        var log2MaxFrameNum: Int
        var pictureOrderCountType: Int
        var log2MaxPictureOrderCountLSB: Int
        var deltaPictureOrderAlwaysZero: Bool
        var maxNumRefFrames: Range<Int>
    }

    /// What a slice header's syntax depends on in the SPS NAL unit `nal` (with its one-byte header), as far as the
    /// reference counts; nil when the SPS cannot be read that far.
    public static func sliceSyntax<C: Collection>(of nal: C) -> H264SliceReferences.Sequence? where C.Element == UInt8 {
        var bits = BitReader(nal: nal, headerBytes: 1, name: "sps")
        guard let head = try? readHead(&bits) else { return nil }
        var reader = BitReader(bytes: bits.rbsp, name: "sps")
        guard (try? reader.skip(head.maxNumRefFrames.lowerBound)) != nil, let refs = try? reader.ue(),
              (try? reader.skip(1)) != nil, (try? reader.ue()) != nil, (try? reader.ue()) != nil,
              let frameMBsOnly = try? reader.flag() else { return nil }
        return H264SliceReferences.Sequence(
            identifier: head.identifier, maxNumRefFrames: Int(refs), separateColourPlanes: head.separateColourPlanes,
            log2MaxFrameNum: head.log2MaxFrameNum, frameMBsOnly: frameMBsOnly,
            pictureOrderCountType: head.pictureOrderCountType,
            log2MaxPictureOrderCountLSB: head.log2MaxPictureOrderCountLSB,
            deltaPictureOrderAlwaysZero: head.deltaPictureOrderAlwaysZero)
    }

    private static func readHead(_ bits: inout BitReader) throws(MP4Error) -> Head {
        let profile = Int(try bits.bits(8))
        try bits.skip(8)  // constraint_set flags, reserved
        let level = Int(try bits.bits(8))
        let identifier = Int(try bits.ue(max: 31, "seq_parameter_set_id"))
        var chromaFormat = 1
        var separateColourPlanes = false
        var bitDepthLuma = 8
        var bitDepthChroma = 8
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaFormat = Int(try bits.ue(max: 3, "chroma_format_idc"))
            if chromaFormat == 3 { separateColourPlanes = try bits.flag() }
            bitDepthLuma = Int(try bits.ue(max: 6, "bit_depth_luma_minus8")) + 8
            bitDepthChroma = Int(try bits.ue(max: 6, "bit_depth_chroma_minus8")) + 8
            try bits.skip(1)  // qpprime_y_zero_transform_bypass_flag
            if try bits.flag() {  // seq_scaling_matrix_present_flag
                for list in 0..<(chromaFormat == 3 ? 12 : 8) where try bits.flag() {
                    try skipScalingList(&bits, size: list < 6 ? 16 : 64)
                }
            }
        }
        let log2MaxFrameNum = Int(try bits.ue(max: 12, "log2_max_frame_num_minus4")) + 4
        let pocType = Int(try bits.ue(max: 2, "pic_order_cnt_type"))
        var log2MaxPocLSB = 0
        var deltaAlwaysZero = false
        if pocType == 0 {
            log2MaxPocLSB = Int(try bits.ue(max: 12, "log2_max_pic_order_cnt_lsb_minus4")) + 4
        } else if pocType == 1 {
            deltaAlwaysZero = try bits.flag()
            _ = try bits.se()
            _ = try bits.se()
            let cycle = try bits.ue(max: 255, "num_ref_frames_in_pic_order_cnt_cycle")
            for _ in 0..<cycle { _ = try bits.se() }
        }
        let refsStart = bits.position
        _ = try bits.ue(max: 32, "max_num_ref_frames")
        return Head(profile: profile, level: level, identifier: identifier, chromaFormat: chromaFormat,
                    separateColourPlanes: separateColourPlanes, bitDepthLuma: bitDepthLuma, bitDepthChroma: bitDepthChroma,
                    log2MaxFrameNum: log2MaxFrameNum, pictureOrderCountType: pocType,
                    log2MaxPictureOrderCountLSB: log2MaxPocLSB, deltaPictureOrderAlwaysZero: deltaAlwaysZero,
                    maxNumRefFrames: refsStart..<bits.position)
    }

    /// The max_num_ref_frames of the SPS NAL unit `nal` (with its one-byte header): how many reference pictures a
    /// decoder keeps; nil when the SPS cannot be read that far.
    public static func maxNumRefFrames(of nal: [UInt8]) -> UInt32? {
        var bits = BitReader(nal: nal, headerBytes: 1, name: "sps")
        guard let field = (try? readHead(&bits))?.maxNumRefFrames else { return nil }
        var reader = BitReader(bytes: bits.rbsp, name: "sps")
        return (try? reader.skip(field.lowerBound)).flatMap { try? reader.ue() }
    }

    /// Where max_num_ref_frames is in the SPS NAL unit `nal` (with its one-byte header): the unit's RBSP, the
    /// field's bit range in it and the position of its stop bit; nil when it cannot be read that far. For rewriting
    /// the field (FrameDecode does, for openh264).
    package static func maxNumRefFramesField(of nal: [UInt8]) -> (rbsp: [UInt8], field: Range<Int>, stopBit: Int)? {
        var bits = BitReader(nal: nal, headerBytes: 1, name: "sps")
        guard let field = (try? readHead(&bits))?.maxNumRefFrames, let stop = bits.lastSetBit, stop >= field.upperBound
        else { return nil }
        return (bits.rbsp, field, stop)
    }

    private static func skipScalingList(_ bits: inout BitReader, size: Int) throws(MP4Error) {
        var last: Int32 = 8
        var next: Int32 = 8
        for _ in 0..<size where next != 0 {
            let delta = try bits.se()
            guard (-128...127).contains(delta) else {
                throw MP4Error(.malformed, path: "sps", offset: 0, "delta_scale \(delta) is outside -128...127")
            }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
    }
}
