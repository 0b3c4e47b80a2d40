/// `trex`: the defaults for a track's samples in movie fragments (ISO/IEC 14496-12, 8.8.3).
public struct TrackExtendsBox: ParsableFullBox {
    public static let fourCC: FourCC = "trex"
    public let header: BoxHeader
    /// The track these defaults apply to.
    public let trackID: UInt32
    /// Default 1-based sample description index.
    public let defaultSampleDescriptionIndex: UInt32
    /// Default sample duration in media timescale units.
    public let defaultSampleDuration: UInt32
    /// Default sample size in bytes.
    public let defaultSampleSize: UInt32
    /// Default sample flags (the layout of 8.8.3.1).
    public let defaultSampleFlags: UInt32

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        trackID = try reader.readUInt32()
        defaultSampleDescriptionIndex = try reader.readUInt32()
        defaultSampleDuration = try reader.readUInt32()
        defaultSampleSize = try reader.readUInt32()
        defaultSampleFlags = try reader.readUInt32()
    }
}
