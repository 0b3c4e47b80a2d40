/// `hdlr`: what kind of media a track holds: `vide`, `soun`, `text`, `meta`, ... (ISO/IEC 14496-12, 8.4.3).
///
/// Only the `hdlr` directly inside `mdia` names the track's media. QuickTime
/// movies also put one in `minf` (component type `dhlr`, subtype `alis` or
/// `url `) that names the data reference handler, and `meta` boxes have their
/// own (`mdir`, `pict`); neither says anything about the samples.
public struct HandlerBox: ParsableFullBox {
    public static let fourCC: FourCC = "hdlr"
    public let header: BoxHeader
    /// The handler type.
    public let handlerType: FourCC
    /// The human-readable name (may be empty).
    public let name: String

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        _ = try reader.readUInt32()  // pre_defined (QuickTime: component type)
        handlerType = try reader.readFourCC()
        if reader.remaining < 12 {
            // Writers that cut the reserved words short (seen in udta/meta): the handler type is all that matters.
            context.note(reader, "hdlr ends after \(reader.remaining) of its 12 reserved bytes")
            reader.skipToEnd()
        } else {
            try reader.skip(12)      // reserved
        }
        name = reader.readNullTerminatedString()
        reader.skipToEnd()           // QuickTime counted strings leave stray bytes; they carry nothing we use.
        if reader.path.isDirectlyInside("mdia") {
            context.handlerType = handlerType
        }
    }
}
