/// `d263`: the H.263 decoder configuration of an `s263` entry (3GPP TS 26.244, 6.8): the encoder's vendor and the
/// stream's profile and level.
public struct H263SpecificBox: ParsableBox {
    public static let fourCC: FourCC = "d263"
    public let header: BoxHeader
    /// H263_Level (10, 20, 30, 45, ...).
    public let level: UInt8
    /// H263_Profile (0 the baseline, 3 and so on).
    public let profile: UInt8

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        try reader.skip(5)  // vendor, decoder_version
        level = try reader.readUInt8()
        profile = try reader.readUInt8()
        reader.skipToEnd()  // an optional bitr box
    }
}
