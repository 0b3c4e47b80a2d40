/// A box type whose payload starts with the FullBox version (8 bits) and flags (24 bits) (ISO/IEC 14496-12, 4.2).
///
/// The registry reads both before the type's own fields and refuses a version whose layout the type does not
/// know, so a parser reads only its fields and a version it was not written for never reaches it.
protocol ParsableFullBox: ParsableBox {
    /// The versions whose layout this parser knows; any other throws `unsupported`. Types whose layout does not
    /// change with the version take the default, every version.
    static var versions: ClosedRange<UInt8> { get }

    /// Parses the fields after the version and flags (`reader` ends at the box's end).
    init(header: BoxHeader, version: UInt8, flags: UInt32, reader: inout BoxReader,
         context: inout ParseContext) throws(MP4Error)
}

extension ParsableFullBox {
    static var versions: ClosedRange<UInt8> { UInt8.min...UInt8.max }

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        let (version, flags) = try reader.readVersionAndFlags()
        guard Self.versions.contains(version) else {
            throw reader.error(.unsupported, "\(header.type) version \(version)")
        }
        try self.init(header: header, version: version, flags: flags, reader: &reader, context: &context)
    }
}
