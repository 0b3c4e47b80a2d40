/// `mdhd`: the media timescale, duration and language (ISO/IEC 14496-12, 8.4.2; versions 0 and 1).
public struct MediaHeaderBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "mdhd"
    public let header: BoxHeader
    /// Media time units per second.
    public let timescale: UInt32
    /// Media duration in `timescale` units.
    public let duration: UInt64
    /// ISO-639-2/T language code, packed as three 5-bit letters.
    public let language: UInt16

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        _ = try reader.readUIntVersioned(box.version)  // creation_time
        _ = try reader.readUIntVersioned(box.version)  // modification_time
        timescale = try reader.readUInt32()
        duration = try reader.readUIntVersioned(box.version)
        language = try reader.readUInt16()
        _ = try reader.readUInt16()                // pre_defined
        guard timescale > 0 else { throw reader.error(.malformed, "media timescale is 0", at: header.offset) }
    }
}
