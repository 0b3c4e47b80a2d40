/// A table of fixed-size big-endian entries kept as the bytes it was read from.
///
/// Sample tables stay in this form: a track of a million samples is a
/// million entries of raw bytes read on demand, never a million structs.
public struct RawTable: Sendable {
    /// The entry bytes (shared with the buffer the box was read from).
    public let bytes: ArraySlice<UInt8>
    /// Bytes per entry.
    public let entrySize: Int
    /// Number of entries.
    public let count: Int
    /// The file offset of the first entry, for error messages.
    public let fileOffset: UInt64

    /// An empty table.
    public static let empty = RawTable(bytes: [], entrySize: 4, count: 0, fileOffset: 0)

    init(bytes: ArraySlice<UInt8>, entrySize: Int, count: Int, fileOffset: UInt64) {
        self.bytes = bytes
        self.entrySize = entrySize
        self.count = count
        self.fileOffset = fileOffset
    }

    /// Reads `count` entries of `entrySize` bytes from `reader`, after checking that its bytes back them.
    static func read(from reader: inout BoxReader, count: UInt64, entrySize: Int, name: String) throws(MP4Error) -> RawTable {
        try reader.requireTable(count: count, entrySize: entrySize, name: name)
        let offset = reader.fileOffset
        let bytes = try reader.readSlice(Int(count) * entrySize)
        return RawTable(bytes: bytes, entrySize: entrySize, count: Int(count), fileOffset: offset)
    }

    /// The 32-bit field at byte `fieldOffset` of entry `index`; the caller keeps `index` in `0..<count`.
    @inline(__always)
    public func uint32(_ index: Int, _ fieldOffset: Int = 0) -> UInt32 {
        let base = bytes.startIndex + index * entrySize + fieldOffset
        return UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
    }

    /// The 64-bit field at byte `fieldOffset` of entry `index`.
    @inline(__always)
    public func uint64(_ index: Int, _ fieldOffset: Int = 0) -> UInt64 {
        UInt64(uint32(index, fieldOffset)) << 32 | UInt64(uint32(index, fieldOffset + 4))
    }

    /// The 16-bit field at byte `fieldOffset` of entry `index`.
    @inline(__always)
    public func uint16(_ index: Int, _ fieldOffset: Int = 0) -> UInt16 {
        let base = bytes.startIndex + index * entrySize + fieldOffset
        return UInt16(bytes[base]) << 8 | UInt16(bytes[base + 1])
    }

    /// The byte at `fieldOffset` of entry `index`.
    @inline(__always)
    public func uint8(_ index: Int, _ fieldOffset: Int = 0) -> UInt8 {
        bytes[bytes.startIndex + index * entrySize + fieldOffset]
    }
}
