/// `mdat`: media data, recorded by location only (ISO/IEC 14496-12, 8.1.1).
public struct MediaDataBox: ParsableBox {
    public static let fourCC: FourCC = "mdat"
    public let header: BoxHeader

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        reader.skipToEnd()
    }
}

/// `free`, `skip` and `wide`: space with nothing in it (ISO/IEC 14496-12, 8.1.2; QuickTime `wide`).
public struct FreeSpaceBox: ParsableBox {
    public let header: BoxHeader

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        reader.skipToEnd()
    }
}
