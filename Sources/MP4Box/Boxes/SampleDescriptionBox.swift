/// `stsd`: the sample entries that say how a track's samples are coded (ISO/IEC 14496-12, 8.5.2).
///
/// Each entry is parsed by the track's handler: `vide` entries as `VisualSampleEntry`,
/// `soun` entries as `AudioSampleEntry`, anything else kept as `UnknownSampleEntry`
/// with its four-character code.
public struct SampleDescriptionBox: ParsableFullBox {
    public static let fourCC: FourCC = "stsd"
    public let header: BoxHeader
    /// The entries, in order; samples refer to them by 1-based index through stsc or tfhd.
    public let entries: [SampleEntry]

    /// Codes of visual entries recognised even when the handler is unknown.
    static let visualCodes: Set<FourCC> = [
        "avc1", "avc2", "avc3", "avc4", "hvc1", "hev1", "dvh1", "dvhe", "av01", "vp08", "vp09", "mp4v",
        "encv", "resv", "jpeg", "mjpa", "apch", "apcn", "apcs", "apco", "ap4h", "s263",
    ]
    /// Codes of audio entries recognised even when the handler is unknown.
    static let audioCodes: Set<FourCC> = ["mp4a", "enca", "ac-3", "ec-3", "Opus", "fLaC", "alac", "samr", "sowt", "twos", "lpcm"]

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        let count = try reader.readUInt32()
        // Every entry has at least an 8-byte header and 8 bytes of fields.
        try reader.requireTable(count: UInt64(count), entrySize: 16, name: "stsd")
        var entries: [SampleEntry] = []
        for index in 0..<Int(count) {
            let entryHeader = try BoxHeader.read(from: &reader, available: UInt64(reader.remaining) + 8)
            let path = reader.path.appending(entryHeader.type, index: count > 1 ? index + 1 : nil)
            let payloadSize = entryHeader.payloadSize ?? 0
            guard payloadSize <= UInt64(reader.remaining) else {
                throw MP4Error(.malformed, path: path.description, offset: entryHeader.offset,
                               "sample entry size \(entryHeader.size ?? 0) exceeds the bytes stsd holds")
            }
            var entryReader = try reader.child(byteCount: Int(payloadSize), path: path)
            entries.append(try SampleEntry.read(header: entryHeader, reader: &entryReader, context: &context))
        }
        self.entries = entries
    }
}

/// One sample entry of an `stsd` box.
public enum SampleEntry: Sendable {
    /// A video entry (avc1, hvc1, encv, ...).
    case visual(VisualSampleEntry)
    /// An audio entry (mp4a, ...).
    case audio(AudioSampleEntry)
    /// Any other entry, recorded by code.
    case other(UnknownSampleEntry)

    /// The entry's four-character code.
    public var type: FourCC {
        switch self {
        case .visual(let entry): entry.header.type
        case .audio(let entry): entry.header.type
        case .other(let entry): entry.header.type
        }
    }

    static func read(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) -> SampleEntry {
        let isVisual = context.handlerType == "vide" || context.handlerType == "auxv" || (context.handlerType == nil && SampleDescriptionBox.visualCodes.contains(header.type))
        let isAudio = context.handlerType == "soun" || (context.handlerType == nil && SampleDescriptionBox.audioCodes.contains(header.type))
        if isVisual {
            return .visual(try VisualSampleEntry(header: header, reader: &reader, context: &context))
        }
        if isAudio {
            return .audio(try AudioSampleEntry(header: header, reader: &reader, context: &context))
        }
        reader.skipToEnd()
        return .other(UnknownSampleEntry(header: header))
    }
}

/// A sample entry this parser does not read, kept by code and location.
public struct UnknownSampleEntry: Sendable {
    public let header: BoxHeader
}
