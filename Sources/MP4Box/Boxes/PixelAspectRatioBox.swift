/// `pasp`: the pixel aspect ratio, horizontal spacing : vertical spacing (ISO/IEC 14496-12, 12.1.4).
public struct PixelAspectRatioBox: ParsableBox {
    public static let fourCC: FourCC = "pasp"
    public let header: BoxHeader
    /// Relative width of a pixel.
    public let hSpacing: UInt32
    /// Relative height of a pixel.
    public let vSpacing: UInt32

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        hSpacing = try reader.readUInt32()
        vSpacing = try reader.readUInt32()
    }
}
