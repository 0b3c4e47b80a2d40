/// `stco` and `co64`: the file offset of every chunk, 32- or 64-bit (ISO/IEC 14496-12, 8.7.5).
public struct ChunkOffsetBox: ParsableBox {
    public static let fourCC: FourCC = "stco"
    public static let largeFourCC: FourCC = "co64"
    public let header: BoxHeader
    /// Entries of 4 (stco) or 8 (co64) bytes: absolute file offsets.
    public let offsets: RawTable

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        _ = try reader.readVersionAndFlags()
        let count = try reader.readUInt32()
        let size = header.type == Self.largeFourCC ? 8 : 4
        offsets = try RawTable.read(from: &reader, count: UInt64(count), entrySize: size, name: header.type.description)
    }

    /// The number of chunks.
    public var chunkCount: Int { offsets.count }

    /// The file offset of chunk `index` (0-based); the caller keeps `index` below `chunkCount`.
    @inline(__always)
    public func offset(ofChunk index: Int) -> UInt64 {
        offsets.entrySize == 8 ? offsets.uint64(index) : UInt64(offsets.uint32(index))
    }
}
