/// `sdtp`: per-sample dependency flags, one byte per sample (ISO/IEC 14496-12, 8.6.4).
public struct SampleDependencyTypeBox: ParsableFullBox {
    public static let fourCC: FourCC = "sdtp"
    public let header: BoxHeader
    /// One byte per sample: is_leading (2 bits), sample_depends_on (2), sample_is_depended_on (2), sample_has_redundancy (2).
    public let flags: RawTable

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        // The count is implied by the sample count; keep every remaining byte.
        self.flags = try RawTable.read(from: &reader, count: UInt64(reader.remaining), entrySize: 1, name: "sdtp")
    }
}

/// The dependency flags of one sample, from sdtp or from fragment sample flags.
public struct SampleDependency: Sendable, Equatable {
    /// 0 unknown, 1 leading with a dependency before the I picture, 2 not leading, 3 leading without such a dependency.
    public var isLeading: UInt8
    /// 0 unknown, 1 depends on others (not an I picture), 2 depends on none (I picture).
    public var dependsOn: UInt8
    /// 0 unknown, 1 other samples depend on this one, 2 no sample depends on it (disposable).
    public var isDependedOn: UInt8
    /// 0 unknown, 1 redundant coding present, 2 none.
    public var hasRedundancy: UInt8

    /// Decodes the sdtp byte layout.
    public init(sdtpByte byte: UInt8) {
        isLeading = byte >> 6 & 3
        dependsOn = byte >> 4 & 3
        isDependedOn = byte >> 2 & 3
        hasRedundancy = byte & 3
    }

    /// Whether no other sample needs this one to decode.
    public var isDisposable: Bool { isDependedOn == 2 }
}
