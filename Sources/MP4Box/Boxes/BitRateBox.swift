/// `btrt`: decoder buffer size and bit rates (ISO/IEC 14496-12, 8.5.2.2).
public struct BitRateBox: ParsableBox {
    public static let fourCC: FourCC = "btrt"
    public let header: BoxHeader
    /// Decoding buffer size in bytes.
    public let bufferSizeDB: UInt32
    /// Maximum rate in bits per second over any one second.
    public let maxBitrate: UInt32
    /// Average rate in bits per second.
    public let avgBitrate: UInt32

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        bufferSizeDB = try reader.readUInt32()
        maxBitrate = try reader.readUInt32()
        avgBitrate = try reader.readUInt32()
    }
}
