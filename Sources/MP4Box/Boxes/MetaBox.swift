/// `meta`: a metadata container (ISO/IEC 14496-12, 8.11.1), as found in udta with an iTunes-style `ilst`.
///
/// ISO meta boxes are full boxes; QuickTime ones are not. The difference is
/// told by whether an `hdlr` header sits where the version and flags would be.
public struct MetaBox: ParsableBox {
    public static let fourCC: FourCC = "meta"
    public let header: BoxHeader
    /// The child boxes (hdlr, ilst, ...).
    public let children: [any Box]

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        let looksLikeQuickTime = reader.remaining >= 8 && (try? reader.peekUInt32(ahead: 4)) == FourCC("hdlr").rawValue
        if !looksLikeQuickTime {
            _ = try reader.readVersionAndFlags()
        }
        let savedHandler = context.handlerType
        children = try BoxTreeReader.readChildren(&reader, context: &context)
        context.handlerType = savedHandler
    }

    /// The item list, if any.
    public var itemList: ContainerBox? {
        for child in children {
            if let box = child as? ContainerBox, box.header.type == "ilst" { return box }
        }
        return nil
    }
}

/// `data`: one value of an iTunes-style metadata item, such as the cover art in `covr`.
public struct MetadataDataBox: ParsableBox {
    public static let fourCC: FourCC = "data"
    public let header: BoxHeader
    /// The well-known type: 1 UTF-8, 13 JPEG, 14 PNG, 27 BMP, 21 integer, ...
    public let dataType: UInt32
    /// The value bytes (shared with the buffer they were read from).
    public let value: ArraySlice<UInt8>
    /// The file offset of the first value byte.
    public let valueOffset: UInt64

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        dataType = try reader.readUInt32() & 0x00FF_FFFF
        _ = try reader.readUInt32()  // locale
        valueOffset = reader.fileOffset
        value = reader.readRemaining()
    }
}
