/// `tkhd`: a track's ID, duration, matrix and presentation size (ISO/IEC 14496-12, 8.3.2; versions 0 and 1).
public struct TrackHeaderBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "tkhd"
    public let header: BoxHeader
    /// 0 (32-bit times) or 1 (64-bit times).
    public let version: UInt8
    /// Flags: 1 enabled, 2 in movie, 4 in preview.
    public let flags: UInt32
    /// The track ID (never 0 in a valid file).
    public let trackID: UInt32
    /// Duration in movie timescale units.
    public let duration: UInt64
    /// The track's transformation matrix.
    public let matrix: TransformMatrix
    /// Presentation width, 16.16 fixed point.
    public let width: UInt32
    /// Presentation height, 16.16 fixed point.
    public let height: UInt32

    /// Whether the track is enabled (flag 1).
    public var isEnabled: Bool { flags & 1 != 0 }

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        version = box.version
        flags = box.flags
        _ = try reader.readUIntVersioned(version)  // creation_time
        _ = try reader.readUIntVersioned(version)  // modification_time
        trackID = try reader.readUInt32()
        try reader.skip(4)                         // reserved
        duration = try reader.readUIntVersioned(version)
        try reader.skip(8)                         // reserved
        _ = try reader.readInt16()                 // layer
        _ = try reader.readInt16()                 // alternate_group
        _ = try reader.readInt16()                 // volume
        try reader.skip(2)                         // reserved
        matrix = try TransformMatrix.read(from: &reader)
        width = try reader.readUInt32()
        height = try reader.readUInt32()
    }
}
