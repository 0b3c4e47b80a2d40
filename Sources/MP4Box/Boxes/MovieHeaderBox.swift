/// `mvhd`: the movie's timescale, duration and matrix (ISO/IEC 14496-12, 8.2.2; versions 0 and 1).
///
/// QuickTime files keep the poster time in what ISO calls `pre_defined`.
public struct MovieHeaderBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "mvhd"
    public let header: BoxHeader
    /// 0 (32-bit times) or 1 (64-bit times).
    public let version: UInt8
    /// Movie time units per second.
    public let timescale: UInt32
    /// The movie duration in `timescale` units (the longest track, after edits).
    public let duration: UInt64
    /// Preferred playback rate, 16.16 fixed point.
    public let rate: Int32
    /// The movie transformation matrix.
    public let matrix: TransformMatrix
    /// The QuickTime poster time in `timescale` units (0 when unset or not QuickTime).
    public let posterTime: UInt32
    /// The next free track ID.
    public let nextTrackID: UInt32

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        version = box.version
        _ = try reader.readUIntVersioned(version)  // creation_time
        _ = try reader.readUIntVersioned(version)  // modification_time
        timescale = try reader.readUInt32()
        duration = try reader.readUIntVersioned(version)
        rate = try reader.readInt32()
        _ = try reader.readUInt16()  // volume
        try reader.skip(10)          // reserved
        matrix = try TransformMatrix.read(from: &reader)
        try reader.skip(8)           // QuickTime preview time and duration
        posterTime = try reader.readUInt32()
        try reader.skip(12)          // QuickTime selection time, selection duration, current time
        nextTrackID = try reader.readUInt32()
        guard timescale > 0 else { throw reader.error(.malformed, "movie timescale is 0", at: header.offset) }
    }
}
