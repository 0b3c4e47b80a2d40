/// A box type whose payload starts with the FullBox version (8 bits) and flags (24 bits) (ISO/IEC 14496-12, 4.2).
///
/// The registry reads both before the type's own fields and refuses a version whose layout the type does not
/// know, so a parser reads only its fields and a version it was not written for never reaches it.
protocol ParsableFullBox: ParsableBox {
    /// The versions whose layout this parser knows; any other throws `unsupported`. Types whose layout does not
    /// change with the version take the default, every version.
    static var versions: ClosedRange<UInt8> { get }

    /// Parses the fields after the version and flags (`reader` ends at the box's end).
    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error)
}

/// What opens a full box: its header, then the version and flags read from the start of its payload.
struct FullBoxHeader {
    /// The box header: type, offset and size.
    let header: BoxHeader
    /// The layout version.
    let version: UInt8
    /// The 24 flag bits.
    let flags: UInt32
}

/// A full box with two layouts, version 0 and version 1: 32-bit times and offsets against 64-bit ones (`mvhd`, `tkhd`,
/// `mdhd`, `elst`, `sidx`, `tfra`, `tfdt`), or `trun`'s unsigned composition offsets against signed ones. Any other
/// version is refused.
protocol TwoVersionFullBox: ParsableFullBox {}

extension TwoVersionFullBox {
    static var versions: ClosedRange<UInt8> { 0...1 }
}

extension ParsableFullBox {
    static var versions: ClosedRange<UInt8> { UInt8.min...UInt8.max }

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        let (version, flags) = try reader.readVersionAndFlags()
        guard Self.versions.contains(version) else {
            throw reader.error(.unsupported, "\(header.type) version \(version)")
        }
        try self.init(FullBoxHeader(header: header, version: version, flags: flags), reader: &reader, context: &context)
    }
}
