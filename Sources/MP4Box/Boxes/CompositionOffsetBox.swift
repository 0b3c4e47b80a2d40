/// `ctts`: composition offsets (pts - dts) as runs of (sample_count, sample_offset) (ISO/IEC 14496-12, 8.6.1.3).
///
/// Version 0 offsets are unsigned, version 1 signed; many version 0 files
/// store negative offsets anyway, so offsets are read as signed whenever
/// their top bit is set.
public struct CompositionOffsetBox: ParsableBox {
    public static let fourCC: FourCC = "ctts"
    public let header: BoxHeader
    /// 0 or 1.
    public let version: UInt8
    /// Runs of 8 bytes: sample_count (u32), sample_offset (32-bit, media timescale units).
    public let runs: RawTable

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        let (version, _) = try reader.readVersionAndFlags()
        self.version = version
        let count = try reader.readUInt32()
        runs = try RawTable.read(from: &reader, count: UInt64(count), entrySize: 8, name: "ctts")
    }
}
