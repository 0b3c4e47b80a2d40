/// The header of an EBML element (RFC 8794, section 4): its ID and the size of its data, each a variable-length
/// integer, and where it is in the file.
public struct EBMLElementHeader: Sendable, Equatable {
    /// The Element ID, with its length marker kept, as the specifications write it (`0x1A45DFA3`).
    public var id: UInt32
    /// The file offset of the ID's first byte.
    public var offset: UInt64
    /// The bytes of the ID and the size together.
    public var headerLength: Int
    /// The size of the data, nil when unknown (all value bits set: the element ends where an element that cannot be
    /// its child starts, or at its parent's end).
    public var dataSize: UInt64?

    /// The file offset of the data's first byte.
    public var dataOffset: UInt64 { offset + UInt64(headerLength) }
    /// The file offset just past the data, when its size is known.
    public var end: UInt64? { dataSize.map { dataOffset &+ $0 } }

    /// Reads a header from `bytes` (whose first byte is at file offset `offset`).
    /// - Returns: nil when `bytes` end before the header does.
    /// - Throws: `MatroskaError` `malformed` for an ID or a size that is no variable-length integer (a first byte of
    ///   zero, an ID longer than 4 bytes) or a size past the largest file offset.
    public static func read(_ bytes: ArraySlice<UInt8>, at offset: UInt64, path: String? = nil) throws(MatroskaError) -> EBMLElementHeader? {
        guard let first = bytes.first else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard first != 0, idLength <= 4 else {
            throw MatroskaError(.malformed, path: path, offset: offset, "byte 0x\(String(first, radix: 16)) starts no element ID")
        }
        guard bytes.count > idLength else { return nil }
        var id: UInt32 = 0
        for byte in bytes.prefix(idLength) { id = id << 8 | UInt32(byte) }
        let sizeStart = bytes.startIndex + idLength
        let sizeFirst = bytes[sizeStart]
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard sizeFirst != 0 else {
            throw MatroskaError(.malformed, path: path, offset: offset, "element 0x\(String(id, radix: 16)) has no readable size")
        }
        guard bytes.count >= idLength + sizeLength else { return nil }
        var size = UInt64(sizeFirst & (0xFF >> sizeLength))
        var allOnes = size == UInt64(0xFF >> sizeLength)
        for byte in bytes[(sizeStart + 1) ..< (sizeStart + sizeLength)] {
            size = size << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        let header = EBMLElementHeader(id: id, offset: offset, headerLength: idLength + sizeLength, dataSize: allOnes ? nil : size)
        if let dataSize = header.dataSize {
            let (end, overflow) = header.dataOffset.addingReportingOverflow(dataSize)
            guard !overflow, end <= UInt64(Int64.max) else {
                throw MatroskaError(.malformed, path: path, offset: offset, "element 0x\(String(id, radix: 16)) claims \(dataSize) bytes")
            }
        }
        return header
    }
}
