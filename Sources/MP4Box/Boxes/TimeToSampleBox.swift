/// `stts`: decode-time deltas as runs of (sample_count, sample_delta) (ISO/IEC 14496-12, 8.6.1.2).
public struct TimeToSampleBox: ParsableBox {
    public static let fourCC: FourCC = "stts"
    public let header: BoxHeader
    /// Runs of 8 bytes: sample_count (u32), sample_delta (u32, media timescale units).
    public let runs: RawTable

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        _ = try reader.readVersionAndFlags()
        let count = try reader.readUInt32()
        runs = try RawTable.read(from: &reader, count: UInt64(count), entrySize: 8, name: "stts")
    }
}
