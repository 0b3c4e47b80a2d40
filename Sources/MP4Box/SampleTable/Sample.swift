/// One sample of a track: where its bytes are and when it is decoded and shown.
public struct Sample: Sendable, Equatable {
    /// 0-based index in decode order.
    public var index: Int
    /// Absolute file offset of the sample's first byte.
    public var offset: UInt64
    /// Size in bytes.
    public var size: UInt32
    /// Decode time in media timescale units, before the edit list.
    public var decodeTime: Int64
    /// Duration in media timescale units.
    public var duration: UInt32
    /// Presentation minus decode time (ctts or trun offset), in media timescale units.
    public var compositionOffset: Int64
    /// Whether the sample is a sync sample (a keyframe a decoder can start at).
    public var isSync: Bool
    /// 1-based index of the sample entry in stsd that describes it.
    public var descriptionIndex: UInt32

    /// Presentation time in media timescale units, before the edit list.
    public var compositionTime: Int64 { decodeTime.saturatingAdd(compositionOffset) }
    /// The byte range of the sample in the file.
    public var byteRange: Range<UInt64> { offset..<(offset.addingReportingOverflow(UInt64(size)).overflow ? .max : offset + UInt64(size)) }
}
