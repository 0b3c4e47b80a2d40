/// `elst`: the edit list that maps the movie timeline onto media time (ISO/IEC 14496-12, 8.6.6; versions 0 and 1).
public struct EditListBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "elst"

    /// One edit: a span of the movie timeline and where it reads the media.
    public struct Entry: Sendable, Equatable {
        /// Length of the edit in movie timescale units.
        public var segmentDuration: UInt64
        /// Start of the edit in media timescale units; -1 for an empty edit.
        public var mediaTime: Int64
        /// Playback rate, 16.16 fixed point (0x10000 is normal speed, 0 a dwell).
        public var mediaRate: Int32

        /// Whether the edit shows nothing (media time -1).
        public var isEmpty: Bool { mediaTime == -1 }
    }

    public let header: BoxHeader
    /// The edits in order.
    public let entries: [Entry]

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        let count = try reader.readUInt32()
        try reader.requireTable(count: UInt64(count), entrySize: box.version == 1 ? 20 : 12, name: "elst")
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let duration = try reader.readUIntVersioned(box.version)
            let mediaTime = box.version == 1 ? try reader.readInt64() : Int64(try reader.readInt32())
            let rate = try reader.readInt32()
            guard mediaTime >= -1 else {
                throw reader.error(.malformed, "edit media time \(mediaTime) is negative")
            }
            entries.append(Entry(segmentDuration: duration, mediaTime: mediaTime, mediaRate: rate))
        }
        self.entries = entries
    }
}
