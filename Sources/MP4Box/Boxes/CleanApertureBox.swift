/// `clap`: the clean aperture, as rational width, height and centre offsets (ISO/IEC 14496-12, 12.1.4).
public struct CleanApertureBox: ParsableBox {
    public static let fourCC: FourCC = "clap"
    public let header: BoxHeader
    public let widthN: UInt32, widthD: UInt32
    public let heightN: UInt32, heightD: UInt32
    /// Horizontal offset of the aperture centre from the picture centre (signed).
    public let horizOffN: Int32, horizOffD: UInt32
    /// Vertical offset of the aperture centre from the picture centre (signed).
    public let vertOffN: Int32, vertOffD: UInt32

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        widthN = try reader.readUInt32(); widthD = try reader.readUInt32()
        heightN = try reader.readUInt32(); heightD = try reader.readUInt32()
        horizOffN = try reader.readInt32(); horizOffD = try reader.readUInt32()
        vertOffN = try reader.readInt32(); vertOffD = try reader.readUInt32()
        guard widthD != 0, heightD != 0, horizOffD != 0, vertOffD != 0 else {
            throw reader.error(.malformed, "clean aperture has a zero denominator", at: header.offset)
        }
    }

    /// The aperture width in pixels.
    public var width: Double { Double(widthN) / Double(widthD) }
    /// The aperture height in pixels.
    public var height: Double { Double(heightN) / Double(heightD) }
    /// The horizontal centre offset in pixels.
    public var horizontalOffset: Double { Double(horizOffN) / Double(horizOffD) }
    /// The vertical centre offset in pixels.
    public var verticalOffset: Double { Double(vertOffN) / Double(vertOffD) }
}
