/// `colr`: colour primaries, transfer, matrix and range (ISO/IEC 14496-12, 12.1.5; QuickTime nclc).
public struct ColourInformationBox: ParsableBox {
    public static let fourCC: FourCC = "colr"
    public let header: BoxHeader
    /// `nclx`, `nclc`, `rICC` or `prof`.
    public let colourType: FourCC
    /// ISO/IEC 23091-2 colour primaries (1 BT.709, 9 BT.2020, ...), for nclx/nclc.
    public let colourPrimaries: UInt16?
    /// Transfer characteristics (1 BT.709, 16 PQ, 18 HLG, ...), for nclx/nclc.
    public let transferCharacteristics: UInt16?
    /// Matrix coefficients (1 BT.709, 6 BT.601, 9 BT.2020 NCL, ...), for nclx/nclc.
    public let matrixCoefficients: UInt16?
    /// Full-range flag; nclx only (nclc has none).
    public let fullRange: Bool?

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        colourType = try reader.readFourCC()
        if colourType == "nclx" || colourType == "nclc" {
            colourPrimaries = try reader.readUInt16()
            transferCharacteristics = try reader.readUInt16()
            matrixCoefficients = try reader.readUInt16()
            fullRange = colourType == "nclx" ? (try reader.readUInt8() & 0x80 != 0) : nil
        } else {
            colourPrimaries = nil
            transferCharacteristics = nil
            matrixCoefficients = nil
            fullRange = nil
        }
        reader.skipToEnd()  // an ICC profile, or padding after nclc
    }
}
