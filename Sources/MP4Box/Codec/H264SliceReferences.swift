/// How many reference list entries H.264 slices use (num_ref_idx_l0/l1_active), read from their headers and the
/// parameter sets they name (ITU-T H.264, 7.3.2.2 and 7.3.3), as far as those counts.
///
/// The standard lets a P or B slice use more list entries than the SPS's max_num_ref_frames: a
/// ref_pic_list_modification may place one picture in several entries, each with its own weight. A decoder that
/// sizes its picture pool by max_num_ref_frames (openh264: that number plus 2) cannot build such a list; this is how
/// it finds out before it is handed the slice.
public struct H264SliceReferences: Sendable {
    /// What a slice header's syntax depends on in an SPS (7.3.2.1.1).
    public struct Sequence: Sendable, Equatable {
        public var identifier: Int
        public var maxNumRefFrames: Int
        public var separateColourPlanes: Bool
        public var log2MaxFrameNum: Int
        public var frameMBsOnly: Bool
        public var pictureOrderCountType: Int
        public var log2MaxPictureOrderCountLSB: Int
        public var deltaPictureOrderAlwaysZero: Bool
    }

    /// What a slice header's syntax depends on in a PPS (7.3.2.2), as far as the reference counts.
    struct Picture: Equatable {
        var sequence: Int
        var bottomFieldPictureOrderInFramePresent: Bool
        var defaultL0: Int
        var defaultL1: Int
        var redundantPictureCountPresent: Bool
    }

    /// The list entries one slice uses, and the max_num_ref_frames of the SPS it names.
    public struct Counts: Sendable, Equatable {
        /// num_ref_idx_l0_active_minus1 + 1 (0 for I and SI slices).
        public var list0: Int
        /// num_ref_idx_l1_active_minus1 + 1 (0 unless a B slice).
        public var list1: Int
        /// The SPS's max_num_ref_frames.
        public var maxNumRefFrames: Int

        /// The longer list.
        public var entries: Int { max(list0, list1) }
    }

    private var sequences: [Int: Sequence] = [:]
    private var pictures: [Int: Picture] = [:]

    /// An empty table: no parameter set seen yet.
    public init() {}

    /// Reads an SPS (NAL type 7) or PPS (type 8) unit, with its one-byte header; other and unreadable units are
    /// left out (a slice naming a parameter set not read has no counts).
    public mutating func add<C: Collection>(parameterSet nal: C) where C.Element == UInt8 {
        guard let header = nal.first else { return }
        switch header & 0x1F {
        case 7:
            if let sequence = H264SequenceParameterSet.sliceSyntax(of: nal) { sequences[sequence.identifier] = sequence }
        case 8:
            if let (identifier, picture) = try? Self.readPicture(nal) { pictures[identifier] = picture }
        default:
            break
        }
    }

    /// The counts of the slice NAL unit `nal` (type 1 or 5, with its header); nil for other units, and for a slice
    /// whose header or parameter sets cannot be read. Only the header's first bytes are read.
    public func counts<C: Collection>(ofSlice nal: C) -> Counts? where C.Element == UInt8 {
        guard let header = nal.first, [1, 5].contains(header & 0x1F) else { return nil }
        // The fields up to the counts take at most ten Exp-Golomb codes and two fixed fields: well inside 160 bytes.
        var bits = BitReader(nal: nal.prefix(160), headerBytes: 1, name: "slice header")
        return try? readCounts(&bits, isIDR: header & 0x1F == 5)
    }

    /// frame_num and bottom_field_flag of the slice NAL unit `nal` (type 1 or 5, with its header) when it codes one
    /// field (field_pic_flag 1); nil for a frame's slice, other units, and a slice whose header or parameter sets
    /// cannot be read.
    public func field<C: Collection>(ofSlice nal: C) -> (frameNumber: Int, isBottom: Bool)? where C.Element == UInt8 {
        guard let header = nal.first, [1, 5].contains(header & 0x1F) else { return nil }
        var bits = BitReader(nal: nal.prefix(64), headerBytes: 1, name: "slice header")
        return try? readField(&bits)
    }

    private func readField(_ bits: inout BitReader) throws(MP4Error) -> (frameNumber: Int, isBottom: Bool)? {
        _ = try bits.ue()  // first_mb_in_slice
        _ = try bits.ue(max: 9, "slice_type")
        let pictureID = Int(try bits.ue(max: 255, "pic_parameter_set_id"))
        guard let picture = pictures[pictureID], let sequence = sequences[picture.sequence], !sequence.frameMBsOnly else { return nil }
        if sequence.separateColourPlanes { try bits.skip(2) }  // colour_plane_id
        let frameNumber = Int(try bits.bits(sequence.log2MaxFrameNum))
        guard try bits.flag() else { return nil }  // field_pic_flag
        return (frameNumber, try bits.flag())
    }

    private func readCounts(_ bits: inout BitReader, isIDR: Bool) throws(MP4Error) -> Counts? {
        _ = try bits.ue()  // first_mb_in_slice
        let sliceType = try bits.ue(max: 9, "slice_type") % 5
        let pictureID = Int(try bits.ue(max: 255, "pic_parameter_set_id"))
        guard let picture = pictures[pictureID], let sequence = sequences[picture.sequence] else { return nil }
        let isB = sliceType == 1
        guard sliceType == 0 || sliceType == 3 || isB else {
            return Counts(list0: 0, list1: 0, maxNumRefFrames: sequence.maxNumRefFrames)
        }
        if sequence.separateColourPlanes { try bits.skip(2) }  // colour_plane_id
        try bits.skip(sequence.log2MaxFrameNum)  // frame_num
        var fieldPicture = false
        if !sequence.frameMBsOnly {
            fieldPicture = try bits.flag()
            if fieldPicture { try bits.skip(1) }  // bottom_field_flag
        }
        if isIDR { _ = try bits.ue() }  // idr_pic_id
        if sequence.pictureOrderCountType == 0 {
            try bits.skip(sequence.log2MaxPictureOrderCountLSB)
            if picture.bottomFieldPictureOrderInFramePresent && !fieldPicture { _ = try bits.se() }
        } else if sequence.pictureOrderCountType == 1 && !sequence.deltaPictureOrderAlwaysZero {
            _ = try bits.se()
            if picture.bottomFieldPictureOrderInFramePresent && !fieldPicture { _ = try bits.se() }
        }
        if picture.redundantPictureCountPresent { _ = try bits.ue() }
        if isB { try bits.skip(1) }  // direct_spatial_mv_pred_flag
        var counts = Counts(list0: picture.defaultL0, list1: isB ? picture.defaultL1 : 0,
                            maxNumRefFrames: sequence.maxNumRefFrames)
        if try bits.flag() {  // num_ref_idx_active_override_flag
            counts.list0 = Int(try bits.ue(max: 31, "num_ref_idx_l0_active_minus1")) + 1
            if isB { counts.list1 = Int(try bits.ue(max: 31, "num_ref_idx_l1_active_minus1")) + 1 }
        }
        return counts
    }

    private static func readPicture<C: Collection>(_ nal: C) throws(MP4Error) -> (Int, Picture)
        where C.Element == UInt8 {
        var bits = BitReader(nal: nal, headerBytes: 1, name: "pps")
        let identifier = Int(try bits.ue(max: 255, "pic_parameter_set_id"))
        let sequence = Int(try bits.ue(max: 31, "seq_parameter_set_id"))
        try bits.skip(1)  // entropy_coding_mode_flag
        let bottomFieldPresent = try bits.flag()
        let groups = Int(try bits.ue(max: 7, "num_slice_groups_minus1")) + 1
        if groups > 1 {
            switch try bits.ue(max: 6, "slice_group_map_type") {
            case 0:
                for _ in 0..<groups { _ = try bits.ue() }  // run_length_minus1
            case 2:
                for _ in 0..<(groups - 1) { _ = try bits.ue(); _ = try bits.ue() }  // top_left, bottom_right
            case 3, 4, 5:
                try bits.skip(1)
                _ = try bits.ue()  // slice_group_change_rate_minus1
            case 6:
                // One slice_group_id of Ceil(Log2(groups)) bits per map unit: skipped whole, so a count from the
                // input costs no loop; a count past the PPS's bits throws.
                let units = Int(try bits.ue(max: 1 << 20, "pic_size_in_map_units_minus1")) + 1
                try bits.skip(units * (Int.bitWidth - (groups - 1).leadingZeroBitCount))
            default:
                break
            }
        }
        let l0 = Int(try bits.ue(max: 31, "num_ref_idx_l0_default_active_minus1")) + 1
        let l1 = Int(try bits.ue(max: 31, "num_ref_idx_l1_default_active_minus1")) + 1
        try bits.skip(3)  // weighted_pred_flag, weighted_bipred_idc
        _ = try bits.se()  // pic_init_qp_minus26
        _ = try bits.se()  // pic_init_qs_minus26
        _ = try bits.se()  // chroma_qp_index_offset
        try bits.skip(2)  // deblocking_filter_control_present_flag, constrained_intra_pred_flag
        let redundant = try bits.flag()
        return (identifier, Picture(sequence: sequence, bottomFieldPictureOrderInFramePresent: bottomFieldPresent,
                                    defaultL0: l0, defaultL1: l1, redundantPictureCountPresent: redundant))
    }
}
