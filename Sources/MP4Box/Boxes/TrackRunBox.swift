/// `trun`: a run of contiguous samples in a track fragment (ISO/IEC 14496-12, 8.8.8; versions 0 and 1).
///
/// Per-sample fields (duration, size, flags, composition offset) are present
/// according to the flags and kept as raw bytes.
public struct TrackRunBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "trun"
    public let header: BoxHeader
    /// 0 (unsigned composition offsets) or 1 (signed).
    public let version: UInt8
    /// The tr_flags.
    public let flags: UInt32
    /// The number of samples.
    public let sampleCount: UInt32
    /// Flag 0x000001: offset of the first sample's data from the base data offset.
    public let dataOffset: Int32?
    /// Flag 0x000004: flags of the first sample, overriding the defaults.
    public let firstSampleFlags: UInt32?
    /// The per-sample entries.
    public let entries: RawTable

    /// Flag 0x000100: each entry has a duration.
    public var hasDuration: Bool { flags & 0x100 != 0 }
    /// Flag 0x000200: each entry has a size.
    public var hasSize: Bool { flags & 0x200 != 0 }
    /// Flag 0x000400: each entry has flags.
    public var hasFlags: Bool { flags & 0x400 != 0 }
    /// Flag 0x000800: each entry has a composition time offset.
    public var hasCompositionOffset: Bool { flags & 0x800 != 0 }

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        version = box.version
        flags = box.flags
        sampleCount = try reader.readUInt32()
        dataOffset = flags & 0x01 != 0 ? try reader.readInt32() : nil
        firstSampleFlags = flags & 0x04 != 0 ? try reader.readUInt32() : nil
        var entrySize = 0
        for bit: UInt32 in [0x100, 0x200, 0x400, 0x800] where flags & bit != 0 { entrySize += 4 }
        if entrySize == 0 {
            if UInt64(sampleCount) > context.limits.maximumSampleCount {
                throw reader.error(.limitExceeded, "trun sample count \(sampleCount) without per-sample fields exceeds the limit of \(context.limits.maximumSampleCount)")
            }
            entries = RawTable(bytes: [], entrySize: 0, count: Int(sampleCount), fileOffset: reader.fileOffset)
        } else {
            entries = try RawTable.read(from: &reader, count: UInt64(sampleCount), entrySize: entrySize, name: "trun")
        }
    }

    /// Byte offset within an entry of the field for `bit`, or nil if absent.
    func fieldOffset(_ bit: UInt32) -> Int? {
        guard flags & bit != 0 else { return nil }
        var offset = 0
        for other: UInt32 in [0x100, 0x200, 0x400, 0x800] where other < bit && flags & other != 0 { offset += 4 }
        return offset
    }
}
