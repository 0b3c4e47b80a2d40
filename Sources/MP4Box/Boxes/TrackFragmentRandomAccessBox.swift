/// `tfra`: for one track, the times and moof offsets of its sync samples (ISO/IEC 14496-12, 8.8.10).
public struct TrackFragmentRandomAccessBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "tfra"

    /// One random access point.
    public struct Entry: Sendable, Equatable {
        /// Presentation time in media timescale units.
        public var time: UInt64
        /// File offset of the moof holding the sample.
        public var moofOffset: UInt64
    }

    public let header: BoxHeader
    /// The track.
    public let trackID: UInt32
    /// The entries, in time order.
    public let entries: [Entry]

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        trackID = try reader.readUInt32()
        let sizes = try reader.readUInt32()
        let trafSize = Int(sizes >> 4 & 3) + 1
        let trunSize = Int(sizes >> 2 & 3) + 1
        let sampleSize = Int(sizes & 3) + 1
        let count = try reader.readUInt32()
        let entrySize = (box.version == 1 ? 16 : 8) + trafSize + trunSize + sampleSize
        try reader.requireTable(count: UInt64(count), entrySize: entrySize, name: "tfra")
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let time = try reader.readUIntVersioned(box.version)
            let offset = try reader.readUIntVersioned(box.version)
            try reader.skip(trafSize + trunSize + sampleSize)
            entries.append(Entry(time: time, moofOffset: offset))
        }
        self.entries = entries
    }
}
