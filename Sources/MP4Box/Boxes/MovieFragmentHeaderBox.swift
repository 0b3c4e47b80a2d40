/// `mfhd`: the sequence number of a movie fragment (ISO/IEC 14496-12, 8.8.5).
public struct MovieFragmentHeaderBox: ParsableFullBox {
    public static let fourCC: FourCC = "mfhd"
    public let header: BoxHeader
    /// The fragment's sequence number, increasing in file order.
    public let sequenceNumber: UInt32

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        sequenceNumber = try reader.readUInt32()
    }
}
