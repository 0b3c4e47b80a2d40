/// `stss`: the 1-based numbers of sync samples, ascending (ISO/IEC 14496-12, 8.6.2).
///
/// With no stss box, every sample is a sync sample.
public struct SyncSampleBox: ParsableBox {
    public static let fourCC: FourCC = "stss"
    public let header: BoxHeader
    /// Entries of 4 bytes: sample_number (u32, 1-based).
    public let sampleNumbers: RawTable

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        _ = try reader.readVersionAndFlags()
        let count = try reader.readUInt32()
        sampleNumbers = try RawTable.read(from: &reader, count: UInt64(count), entrySize: 4, name: "stss")
    }
}
