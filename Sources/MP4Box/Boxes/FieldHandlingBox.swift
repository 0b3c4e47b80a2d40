/// `fiel`: QuickTime's field handling of a video entry: whether each sample is one progressive picture or two fields,
/// and in which order the fields come.
public struct FieldHandlingBox: ParsableBox {
    public static let fourCC: FourCC = "fiel"
    public let header: BoxHeader
    /// Fields per sample: 1 progressive, 2 interlaced.
    public let fieldCount: UInt8
    /// The order: 0 unknown or progressive; 1 and 9 the top field first, 6 and 14 the bottom field first (1 and 6
    /// stored as two separate fields one after the other, 9 and 14 interleaved line by line).
    public let ordering: UInt8

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        fieldCount = try reader.readUInt8()
        ordering = try reader.readUInt8()
    }

    /// Whether the bottom field is the first of a sample (else the top one is).
    public var bottomFieldFirst: Bool { ordering == 6 || ordering == 14 }
}
