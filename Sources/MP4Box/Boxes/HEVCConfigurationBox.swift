/// `hvcC`: the HEVC decoder configuration record (ISO/IEC 14496-15, 8.3.3.1).
public struct HEVCConfigurationBox: ParsableBox {
    public static let fourCC: FourCC = "hvcC"

    /// One array of parameter-set NAL units of one type.
    public struct NALArray: Sendable {
        /// Whether every NAL of this type is in the array (and none in band).
        public var arrayCompleteness: Bool
        /// The NAL unit type: 32 VPS, 33 SPS, 34 PPS, 39/40 SEI.
        public var nalUnitType: UInt8
        /// The NAL units, without length prefixes.
        public var nalUnits: [[UInt8]]
    }

    public let header: BoxHeader
    /// general_profile_idc (1 Main, 2 Main 10, 3 Main Still Picture, 4 range extensions).
    public let generalProfileIDC: UInt8
    /// general_tier_flag.
    public let generalTierFlag: Bool
    /// general_level_idc (level times 30).
    public let generalLevelIDC: UInt8
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormat: UInt8
    /// Luma bit depth.
    public let bitDepthLuma: UInt8
    /// Chroma bit depth.
    public let bitDepthChroma: UInt8
    /// Bytes in each NAL unit length prefix: 1, 2 or 4.
    public let nalUnitLengthSize: Int
    /// The parameter-set arrays.
    public let arrays: [NALArray]

    /// The NAL units of one type, across arrays.
    public func nalUnits(ofType type: UInt8) -> [[UInt8]] {
        arrays.filter { $0.nalUnitType == type }.flatMap(\.nalUnits)
    }

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        let version = try reader.readUInt8()
        guard version == 1 else { throw reader.error(.unsupported, "hvcC configuration version \(version)") }
        let profileByte = try reader.readUInt8()
        generalTierFlag = profileByte & 0x20 != 0
        generalProfileIDC = profileByte & 0x1F
        try reader.skip(4)   // general_profile_compatibility_flags
        try reader.skip(6)   // general_constraint_indicator_flags
        generalLevelIDC = try reader.readUInt8()
        try reader.skip(2)   // min_spatial_segmentation_idc
        try reader.skip(1)   // parallelismType
        chromaFormat = try reader.readUInt8() & 0x3
        bitDepthLuma = (try reader.readUInt8() & 0x7) + 8
        bitDepthChroma = (try reader.readUInt8() & 0x7) + 8
        try reader.skip(2)   // avgFrameRate
        let lengthByte = try reader.readUInt8()
        let lengthSize = Int(lengthByte & 0x3) + 1
        guard lengthSize != 3 else { throw reader.error(.malformed, "NAL unit length size 3") }
        nalUnitLengthSize = lengthSize
        let arrayCount = Int(try reader.readUInt8())
        var arrays: [NALArray] = []
        for _ in 0..<arrayCount {
            let typeByte = try reader.readUInt8()
            let nalCount = Int(try reader.readUInt16())
            // Each NAL needs at least its 2-byte length.
            try reader.requireTable(count: UInt64(nalCount), entrySize: 2, name: "hvcC NAL array")
            var units: [[UInt8]] = []
            for _ in 0..<nalCount {
                let length = Int(try reader.readUInt16())
                units.append(Array(try reader.readSlice(length)))
            }
            arrays.append(NALArray(arrayCompleteness: typeByte & 0x80 != 0, nalUnitType: typeByte & 0x3F, nalUnits: units))
        }
        self.arrays = arrays
    }
}
