/// `ftyp` (and `styp`): the file's brands (ISO/IEC 14496-12, 4.3).
public struct FileTypeBox: ParsableBox {
    public static let fourCC: FourCC = "ftyp"
    public let header: BoxHeader
    /// The best-use brand.
    public let majorBrand: FourCC
    /// The minor version of the major brand.
    public let minorVersion: UInt32
    /// Brands the file is compatible with.
    public let compatibleBrands: [FourCC]

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        majorBrand = try reader.readFourCC()
        minorVersion = try reader.readUInt32()
        var brands: [FourCC] = []
        while reader.remaining >= 4 {
            brands.append(try reader.readFourCC())
        }
        compatibleBrands = brands
    }

    /// Whether the file declares itself QuickTime (`qt  `).
    public var isQuickTime: Bool { majorBrand == "qt  " }
}
