/// `avcC`: the H.264 decoder configuration record (ISO/IEC 14496-15, 5.3.3.1).
public struct AVCConfigurationBox: ParsableBox {
    public static let fourCC: FourCC = "avcC"
    public let header: BoxHeader
    /// AVCProfileIndication (66 Baseline, 77 Main, 100 High, ...).
    public let profileIndication: UInt8
    /// The constraint flags byte.
    public let profileCompatibility: UInt8
    /// AVCLevelIndication (level times 10).
    public let levelIndication: UInt8
    /// Bytes in each NAL unit length prefix: 1, 2 or 4.
    public let nalUnitLengthSize: Int
    /// Sequence parameter sets, without length prefixes.
    public let sequenceParameterSets: [[UInt8]]
    /// Picture parameter sets, without length prefixes.
    public let pictureParameterSets: [[UInt8]]
    /// For High profiles: chroma_format_idc, if the record carries the extension.
    public let chromaFormat: UInt8?
    /// For High profiles: luma bit depth, if the record carries the extension.
    public let bitDepthLuma: UInt8?
    /// For High profiles: chroma bit depth, if the record carries the extension.
    public let bitDepthChroma: UInt8?
    /// The whole record as stored.
    public let record: ArraySlice<UInt8>

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        record = try reader.peekSlice(reader.remaining)
        let version = try reader.readUInt8()
        guard version == 1 else { throw reader.error(.unsupported, "avcC configuration version \(version)") }
        profileIndication = try reader.readUInt8()
        profileCompatibility = try reader.readUInt8()
        levelIndication = try reader.readUInt8()
        let lengthSize = Int(try reader.readUInt8() & 0x3) + 1
        guard lengthSize != 3 else { throw reader.error(.malformed, "NAL unit length size 3") }
        nalUnitLengthSize = lengthSize
        let spsCount = Int(try reader.readUInt8() & 0x1F)
        sequenceParameterSets = try Self.readParameterSets(count: spsCount, from: &reader)
        let ppsCount = Int(try reader.readUInt8())
        pictureParameterSets = try Self.readParameterSets(count: ppsCount, from: &reader)
        if [100, 110, 122, 144].contains(profileIndication) && reader.remaining >= 4 {
            chromaFormat = try reader.readUInt8() & 0x3
            bitDepthLuma = (try reader.readUInt8() & 0x7) + 8
            bitDepthChroma = (try reader.readUInt8() & 0x7) + 8
            let extCount = Int(try reader.readUInt8())
            _ = try Self.readParameterSets(count: extCount, from: &reader)  // SPS extensions
        } else {
            chromaFormat = nil
            bitDepthLuma = nil
            bitDepthChroma = nil
        }
        reader.skipToEnd()  // some writers leave trailing bytes; they carry nothing a decoder needs.
    }

    static func readParameterSets(count: Int, from reader: inout BoxReader) throws(MP4Error) -> [[UInt8]] {
        var sets: [[UInt8]] = []
        for _ in 0..<count {
            let length = Int(try reader.readUInt16())
            sets.append(Array(try reader.readSlice(length)))
        }
        return sets
    }
}
