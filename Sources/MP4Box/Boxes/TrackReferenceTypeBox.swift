/// A box inside `tref` naming the tracks this one refers to, by the reference's type (ISO/IEC 14496-12, 8.3.3): `auxl`
/// (this track is an auxiliary picture of them, as an alpha plane is).
public struct TrackReferenceTypeBox: ParsableBox {
    /// An auxiliary track's reference to the track it belongs to.
    public static let auxiliaryFourCC: FourCC = "auxl"
    public let header: BoxHeader
    /// The track IDs referred to.
    public let trackIDs: [UInt32]

    /// Most track IDs read from one reference (a movie has a few tracks).
    static let maximumTrackIDs = 64

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        var ids: [UInt32] = []
        while reader.remaining >= 4, ids.count < Self.maximumTrackIDs {
            ids.append(try reader.readUInt32())
        }
        reader.skipToEnd()
        trackIDs = ids
    }
}
