/// `tfhd`: a track fragment's track ID, base data offset and sample defaults (ISO/IEC 14496-12, 8.8.7).
public struct TrackFragmentHeaderBox: ParsableFullBox {
    public static let fourCC: FourCC = "tfhd"
    public let header: BoxHeader
    /// The tf_flags.
    public let flags: UInt32
    /// The track this fragment belongs to.
    public let trackID: UInt32
    /// The base data offset, when flag 0x000001 is set.
    public let baseDataOffset: UInt64?
    /// Flag 0x000002.
    public let sampleDescriptionIndex: UInt32?
    /// Flag 0x000008.
    public let defaultSampleDuration: UInt32?
    /// Flag 0x000010.
    public let defaultSampleSize: UInt32?
    /// Flag 0x000020.
    public let defaultSampleFlags: UInt32?

    /// Flag 0x010000: the fragment has no samples.
    public var durationIsEmpty: Bool { flags & 0x01_0000 != 0 }
    /// Flag 0x020000: data offsets are relative to the enclosing moof.
    public var defaultBaseIsMoof: Bool { flags & 0x02_0000 != 0 }

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        flags = box.flags
        trackID = try reader.readUInt32()
        baseDataOffset = flags & 0x01 != 0 ? try reader.readUInt64() : nil
        sampleDescriptionIndex = flags & 0x02 != 0 ? try reader.readUInt32() : nil
        defaultSampleDuration = flags & 0x08 != 0 ? try reader.readUInt32() : nil
        defaultSampleSize = flags & 0x10 != 0 ? try reader.readUInt32() : nil
        defaultSampleFlags = flags & 0x20 != 0 ? try reader.readUInt32() : nil
    }
}

/// `tfdt`: the decode time of a track fragment's first sample (ISO/IEC 14496-12, 8.8.12; versions 0 and 1).
public struct TrackFragmentBaseMediaDecodeTimeBox: TwoVersionFullBox {
    public static let fourCC: FourCC = "tfdt"
    public let header: BoxHeader
    /// Decode time in media timescale units.
    public let baseMediaDecodeTime: UInt64

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        baseMediaDecodeTime = try reader.readUIntVersioned(box.version)
    }
}
