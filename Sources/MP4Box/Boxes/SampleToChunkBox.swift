/// `stsc`: runs of chunks with the same number of samples (ISO/IEC 14496-12, 8.7.4).
public struct SampleToChunkBox: ParsableBox {
    public static let fourCC: FourCC = "stsc"
    public let header: BoxHeader
    /// Entries of 12 bytes: first_chunk (u32, 1-based), samples_per_chunk (u32), sample_description_index (u32, 1-based).
    public let entries: RawTable

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        _ = try reader.readVersionAndFlags()
        let count = try reader.readUInt32()
        entries = try RawTable.read(from: &reader, count: UInt64(count), entrySize: 12, name: "stsc")
    }
}
