/// `frma`: the original format of a protected sample entry (ISO/IEC 14496-12, 8.12.2).
public struct OriginalFormatBox: ParsableBox {
    public static let fourCC: FourCC = "frma"
    public let header: BoxHeader
    /// The sample entry code before protection (avc1, hvc1, ...).
    public let dataFormat: FourCC

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        dataFormat = try reader.readFourCC()
    }
}

/// `schm`: the protection scheme, such as `cenc` or `cbcs` (ISO/IEC 14496-12, 8.12.5).
public struct SchemeTypeBox: ParsableFullBox {
    public static let fourCC: FourCC = "schm"
    public let header: BoxHeader
    /// The scheme code.
    public let schemeType: FourCC
    /// The scheme version.
    public let schemeVersion: UInt32

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        schemeType = try reader.readFourCC()
        schemeVersion = try reader.readUInt32()
        if box.flags & 1 != 0 { _ = reader.readNullTerminatedString() }  // scheme_uri
    }
}

/// What a `sinf` box says about a protected (encv/resv) sample entry.
public struct ProtectionSchemeInfo: Sendable, Equatable {
    /// The format before protection, from frma.
    public var originalFormat: FourCC?
    /// The scheme, from schm.
    public var schemeType: FourCC?

    init(sinf: ContainerBox) {
        originalFormat = sinf.first(OriginalFormatBox.self)?.dataFormat
        schemeType = sinf.first(SchemeTypeBox.self)?.schemeType
    }
}
