/// `sidx`: the index of subsegments (usually one per fragment) by time and byte size (ISO/IEC 14496-12, 8.16.3).
public struct SegmentIndexBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "sidx"

    /// One reference: a subsegment (or another sidx).
    public struct Reference: Sendable, Equatable {
        /// Whether it points at another sidx rather than media.
        public var referencesIndex: Bool
        /// Bytes from the start of this reference to the next.
        public var referencedSize: UInt32
        /// Duration in `timescale` units.
        public var subsegmentDuration: UInt32
        /// Whether the subsegment starts with a stream access point.
        public var startsWithSAP: Bool
        /// The SAP type (1-6, 0 unknown).
        public var sapType: UInt8
    }

    public let header: BoxHeader
    /// The stream this index describes.
    public let referenceID: UInt32
    /// Time units per second.
    public let timescale: UInt32
    /// Presentation time of the first subsegment.
    public let earliestPresentationTime: UInt64
    /// Bytes from the end of this box to the first subsegment.
    public let firstOffset: UInt64
    /// The references, in order.
    public let references: [Reference]

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        referenceID = try reader.readUInt32()
        timescale = try reader.readUInt32()
        earliestPresentationTime = try reader.readUIntVersioned(box.version)
        firstOffset = try reader.readUIntVersioned(box.version)
        try reader.skip(2)  // reserved
        let count = try reader.readUInt16()
        try reader.requireTable(count: UInt64(count), entrySize: 12, name: "sidx")
        var references: [Reference] = []
        references.reserveCapacity(Int(count))
        for _ in 0..<count {
            let sizeWord = try reader.readUInt32()
            let duration = try reader.readUInt32()
            let sapWord = try reader.readUInt32()
            references.append(Reference(referencesIndex: sizeWord & 0x8000_0000 != 0, referencedSize: sizeWord & 0x7FFF_FFFF,
                                        subsegmentDuration: duration, startsWithSAP: sapWord & 0x8000_0000 != 0,
                                        sapType: UInt8(sapWord >> 28 & 0x7)))
        }
        self.references = references
    }

    /// Where each referenced subsegment starts and how long it is, the first `firstOffset` bytes after this box's
    /// end; nil when the box's end is unknown or an offset passes the largest one a file can have.
    public var subsegments: [(offset: UInt64, size: UInt64)]? {
        guard let end = header.endOffset else { return nil }
        var (offset, overflow) = end.addingReportingOverflow(firstOffset)
        var subsegments: [(offset: UInt64, size: UInt64)] = []
        subsegments.reserveCapacity(references.count)
        for reference in references {
            guard !overflow, offset <= .maximumFileOffset else { return nil }
            subsegments.append((offset, UInt64(reference.referencedSize)))
            (offset, overflow) = offset.addingReportingOverflow(UInt64(reference.referencedSize))
        }
        guard !overflow, offset <= .maximumFileOffset else { return nil }
        return subsegments
    }
}
