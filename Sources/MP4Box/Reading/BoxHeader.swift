/// The size and type that open every box (ISO/IEC 14496-12, 4.2).
///
/// Sizes may be 32-bit, 64-bit (`largesize`, when the 32-bit size is 1), or
/// 0, meaning the box runs to the end of its parent (or of the file).
public struct BoxHeader: Sendable, Equatable {
    /// The box type.
    public var type: FourCC
    /// The absolute file offset of the first byte of the box.
    public var offset: UInt64
    /// Bytes of the header itself: 8, 16 with a largesize, plus 16 for a `uuid` box's user type.
    public var headerSize: Int
    /// The whole box size in bytes, header included; `nil` when the size is 0 and the end is not known.
    public var size: UInt64?
    /// For `uuid` boxes, the 16-byte extended type.
    public var userType: [UInt8]?

    /// The largest header: 16 bytes of size and largesize, plus a 16-byte uuid.
    public static let maximumSize = 32

    /// The payload size, when the box size is known.
    public var payloadSize: UInt64? { size.map { $0 - UInt64(headerSize) } }
    /// The absolute file offset just past the box, when the size is known.
    public var endOffset: UInt64? { size.map { offset + $0 } }

    /// Makes a header.
    public init(type: FourCC, offset: UInt64, headerSize: Int, size: UInt64?, userType: [UInt8]? = nil) {
        self.type = type
        self.offset = offset
        self.headerSize = headerSize
        self.size = size
        self.userType = userType
    }

    /// Reads a header, resolving a size of 0 to `available` (the bytes from the header's start to the parent's end) when known.
    ///
    /// - Throws: `MP4Error` `needMoreBytes` when the header is cut off, `malformed` when the size is smaller than the header.
    public static func read(from reader: inout BoxReader, available: UInt64?) throws(MP4Error) -> BoxHeader {
        let offset = reader.fileOffset
        let size32 = try reader.readUInt32()
        let type = try reader.readFourCC()
        var headerSize = 8
        var size: UInt64?
        switch size32 {
        case 1:
            size = try reader.readUInt64()
            headerSize = 16
        case 0:
            size = available
        default:
            size = UInt64(size32)
        }
        var userType: [UInt8]?
        if type == "uuid" {
            userType = Array(try reader.readSlice(16))
            headerSize += 16
        }
        if let size, size < UInt64(headerSize) {
            throw MP4Error(.malformed, path: reader.path.appending(type).description, offset: offset,
                           "box size \(size) is smaller than its header of \(headerSize) bytes")
        }
        return BoxHeader(type: type, offset: offset, headerSize: headerSize, size: size, userType: userType)
    }
}
