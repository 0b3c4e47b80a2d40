/// The sample-table boxes that are a full box header, an entry count and that many fixed-size entries: stts, ctts,
/// stss, stsc, stco and co64 (ISO/IEC 14496-12, 8.6 and 8.7). One type reads them all; the entries stay raw bytes,
/// read where they are used (`SampleTable`), so a table of millions of entries costs no more than its bytes.
public struct EntryTableBox: ParsableFullBox {
    /// Which table, with the layout of its entries.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// `stts`: runs of (sample_count u32, sample_delta u32), decode-time deltas in media timescale units (8.6.1.2).
        case timeToSample
        /// `ctts`: runs of (sample_count u32, sample_offset 32-bit), presentation minus decode time (8.6.1.3).
        /// Version 0 offsets are unsigned and version 1 signed, but many version 0 files store negative offsets
        /// anyway, so offsets are read as signed whenever their top bit is set.
        case compositionOffset
        /// `stss`: sample_number (u32, 1-based), ascending: the sync samples. With no stss every sample is one (8.6.2).
        case syncSample
        /// `stsc`: runs of chunks with the same number of samples: (first_chunk u32, 1-based; samples_per_chunk u32;
        /// sample_description_index u32, 1-based) (8.7.4).
        case sampleToChunk
        /// `stco` (u32) and `co64` (u64): the absolute file offset of every chunk (8.7.5).
        case chunkOffset

        /// The box types of this kind.
        public var fourCCs: [FourCC] {
            switch self {
            case .timeToSample: ["stts"]
            case .compositionOffset: ["ctts"]
            case .syncSample: ["stss"]
            case .sampleToChunk: ["stsc"]
            case .chunkOffset: ["stco", "co64"]
            }
        }

        /// The kind of a box type, if it is one of these tables.
        public init?(type: FourCC) {
            guard let kind = Self.allCases.first(where: { $0.fourCCs.contains(type) }) else { return nil }
            self = kind
        }

        /// Bytes per entry in a box of `type`.
        func entrySize(of type: FourCC) -> Int {
            switch self {
            case .syncSample: 4
            case .timeToSample, .compositionOffset: 8
            case .sampleToChunk: 12
            case .chunkOffset: type == "co64" ? 8 : 4
            }
        }
    }

    public let header: BoxHeader
    /// Which table this is.
    public let kind: Kind
    /// The full box version (for ctts, 1 declares signed offsets).
    public let version: UInt8
    /// The entries, in file order.
    public let entries: RawTable

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        guard let kind = Kind(type: header.type) else {
            throw MP4Error(.malformed, path: header.type.description, offset: header.offset, "not an entry table")
        }
        self.kind = kind
        version = box.version
        let count = try reader.readUInt32()
        entries = try RawTable.read(from: &reader, count: UInt64(count), entrySize: kind.entrySize(of: header.type),
                                    name: header.type.description)
    }

    /// The file offset of chunk `index` (0-based) of an stco or co64 box; the caller keeps `index` below `entries.count`.
    @inline(__always)
    public func chunkOffset(_ index: Int) -> UInt64 {
        entries.entrySize == 8 ? entries.uint64(index) : UInt64(entries.uint32(index))
    }
}

extension ContainerBox {
    /// The first child entry table of `kind` (an stbl's stts, ctts, stss, stsc, or stco/co64).
    public func table(_ kind: EntryTableBox.Kind) -> EntryTableBox? {
        all(EntryTableBox.self).first { $0.kind == kind }
    }
}
