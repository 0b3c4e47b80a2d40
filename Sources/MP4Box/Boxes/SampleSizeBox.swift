/// `stsz` and `stz2`: the size of every sample (ISO/IEC 14496-12, 8.7.3).
///
/// stsz holds either one constant size or a 32-bit size per sample; stz2
/// packs sizes in 4, 8 or 16 bits. Sizes are read on demand from the raw bytes.
public struct SampleSizeBox: ParsableFullBox {
    public static let fourCC: FourCC = "stsz"
    public static let compactFourCC: FourCC = "stz2"
    public let header: BoxHeader
    /// The size of every sample when they are all the same, else 0.
    public let constantSize: UInt32
    /// The number of samples.
    public let sampleCount: UInt32
    /// Bits per entry: 32 for stsz; 4, 8 or 16 for stz2.
    public let fieldSize: Int
    /// The packed entries (empty when `constantSize` is not 0).
    public let entries: RawTable

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        if header.type == Self.compactFourCC {
            try reader.skip(3)  // reserved
            let size = Int(try reader.readUInt8())
            guard size == 4 || size == 8 || size == 16 else {
                throw reader.error(.malformed, "stz2 field size \(size) is not 4, 8 or 16")
            }
            fieldSize = size
            constantSize = 0
            sampleCount = try reader.readUInt32()
            let byteCount = (UInt64(sampleCount) * UInt64(size) + 7) / 8
            try reader.requireTable(count: byteCount, entrySize: 1, name: "stz2")
            entries = try RawTable.read(from: &reader, count: byteCount, entrySize: 1, name: "stz2")
        } else {
            fieldSize = 32
            constantSize = try reader.readUInt32()
            sampleCount = try reader.readUInt32()
            if constantSize == 0 {
                entries = try RawTable.read(from: &reader, count: UInt64(sampleCount), entrySize: 4, name: "stsz")
            } else {
                if UInt64(sampleCount) > context.limits.maximumSampleCount {
                    throw reader.error(.limitExceeded, "constant-size sample count \(sampleCount) exceeds the limit of \(context.limits.maximumSampleCount)")
                }
                entries = .empty
                // Some writers still list the sizes after a constant size; they are redundant.
                reader.skipToEnd()
            }
        }
    }

    /// The size of sample `index` (0-based); the caller keeps `index` below `sampleCount`.
    @inline(__always)
    public func size(of index: Int) -> UInt32 {
        if constantSize != 0 { return constantSize }
        switch fieldSize {
        case 32: return entries.uint32(index)
        case 16: return UInt32(entries.uint16(0, index * 2))
        case 8: return UInt32(entries.uint8(0, index))
        default:
            let byte = entries.uint8(0, index / 2)
            return UInt32(index % 2 == 0 ? byte >> 4 : byte & 0x0F)
        }
    }
}
