/// `hdlr`: what kind of media a track holds: `vide`, `soun`, `text`, `meta`, ... (ISO/IEC 14496-12, 8.4.3).
public struct HandlerBox: ParsableBox {
    public static let fourCC: FourCC = "hdlr"
    public let header: BoxHeader
    /// The handler type.
    public let handlerType: FourCC
    /// The human-readable name (may be empty).
    public let name: String

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        _ = try reader.readVersionAndFlags()
        _ = try reader.readUInt32()  // pre_defined (QuickTime: component type)
        handlerType = try reader.readFourCC()
        try reader.skip(12)          // reserved
        name = reader.readNullTerminatedString()
        reader.skipToEnd()           // QuickTime counted strings leave stray bytes; they carry nothing we use.
        context.handlerType = handlerType
    }
}
