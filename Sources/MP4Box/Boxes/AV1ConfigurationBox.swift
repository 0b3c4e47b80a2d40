/// `av1C`: the AV1 codec configuration record (AV1 Codec ISO Media File Format Binding, 2.3).
///
/// A plain box (not a full box): four bytes that restate the sequence header's profile, level, bit depth and
/// subsampling, then configOBUs, which hold the sequence header OBU (and metadata OBUs) when the writer put them
/// there; some writers leave it empty and the sequence header is only in band.
public struct AV1ConfigurationBox: ParsableBox {
    public static let fourCC: FourCC = "av1C"
    public let header: BoxHeader
    /// seq_profile: 0 Main, 1 High, 2 Professional.
    public let profile: UInt8
    /// seq_level_idx of operating point 0.
    public let level: UInt8
    /// Bits per sample: 8, 10 or 12.
    public let bitDepth: Int
    /// Whether the stream is monochrome.
    public let monochrome: Bool
    /// chroma_subsampling_x and chroma_subsampling_y.
    public let chromaSubsampling: (x: Bool, y: Bool)
    /// The configOBUs as stored: OBUs in the low-overhead format, each with its size field.
    public let configOBUs: [UInt8]

    /// The payload of the first sequence header OBU in `configOBUs`, if any.
    /// - Throws: `MP4Error` when configOBUs are not a run of OBUs.
    public func sequenceHeaderPayload() throws(MP4Error) -> ArraySlice<UInt8>? {
        let units = try AV1OBU.units(in: configOBUs, name: "av1C configOBUs")
        guard let sequenceHeader = units.first(where: { $0.type == AV1OBU.sequenceHeaderType }) else { return nil }
        return configOBUs[sequenceHeader.payload]
    }

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        let first = try reader.readUInt8()
        guard first & 0x80 != 0, first & 0x7F == 1 else {
            throw reader.error(.unsupported, "av1C marker and version byte \(first), not 0x81")
        }
        let second = try reader.readUInt8()
        profile = second >> 5
        level = second & 0x1F
        let third = try reader.readUInt8()
        let highBitDepth = third & 0x40 != 0
        let twelveBit = third & 0x20 != 0
        bitDepth = highBitDepth ? (twelveBit ? 12 : 10) : 8
        monochrome = third & 0x10 != 0
        chromaSubsampling = (third & 0x08 != 0, third & 0x04 != 0)
        _ = try reader.readUInt8()  // reserved, initial_presentation_delay
        configOBUs = Array(try reader.readSlice(reader.remaining))
    }
}
