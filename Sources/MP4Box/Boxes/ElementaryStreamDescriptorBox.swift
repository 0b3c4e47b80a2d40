/// `esds`: an MPEG-4 elementary stream descriptor (ISO/IEC 14496-14, 3.1.2; the descriptors of ISO/IEC 14496-1, 7.2.6):
/// what an `mp4v` (or `mp4a`) entry's stream is, by its object type, and the decoder's specific configuration (for
/// MPEG-4 Visual, the VisualObjectSequence and VOL headers).
public struct ElementaryStreamDescriptorBox: ParsableFullBox {
    public static let fourCC: FourCC = "esds"
    public let header: BoxHeader
    /// DecoderConfigDescriptor's objectTypeIndication (0x20 MPEG-4 Visual, 0x60-0x65 MPEG-2 Video's profiles,
    /// 0x6A MPEG-1 Video, 0x6C JPEG, 0x40 AAC, ...); nil when the descriptor has none.
    public let objectTypeIndication: UInt8?
    /// The DecoderSpecificInfo's bytes (empty when there are none).
    public let decoderSpecificInfo: [UInt8]

    private static let esDescriptorTag: UInt8 = 0x03
    private static let decoderConfigTag: UInt8 = 0x04
    private static let decoderSpecificInfoTag: UInt8 = 0x05

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        var descriptor = try Self.descriptor(tagged: Self.esDescriptorTag, in: &reader)
        _ = try descriptor.readUInt16()  // ES_ID
        let flags = try descriptor.readUInt8()
        if flags & 0x80 != 0 { try descriptor.skip(2) }                                  // dependsOn_ES_ID
        if flags & 0x40 != 0 { try descriptor.skip(Int(try descriptor.readUInt8())) }    // URL
        if flags & 0x20 != 0 { try descriptor.skip(2) }                                  // OCR_ES_Id
        guard descriptor.remaining > 0 else {
            objectTypeIndication = nil
            decoderSpecificInfo = []
            reader.skipToEnd()
            return
        }
        var configuration = try Self.descriptor(tagged: Self.decoderConfigTag, in: &descriptor)
        objectTypeIndication = try configuration.readUInt8()
        try configuration.skip(12)  // streamType and flags, bufferSizeDB, maxBitrate, avgBitrate
        if configuration.remaining > 0 {
            var (tag, specific) = try Self.descriptor(in: &configuration)
            decoderSpecificInfo = tag == Self.decoderSpecificInfoTag ? Array(specific.readRemaining()) : []
        } else {
            decoderSpecificInfo = []
        }
        reader.skipToEnd()  // SLConfigDescriptor and any others
    }

    /// A reader of the descriptor with `tag` that starts at the reader's position.
    /// - Throws: `MP4Error` `malformed` for another tag.
    private static func descriptor(tagged tag: UInt8, in reader: inout BoxReader) throws(MP4Error) -> BoxReader {
        let (found, descriptor) = try descriptor(in: &reader)
        guard found == tag else {
            throw reader.error(.malformed, "descriptor tag \(found) where tag \(tag) was expected")
        }
        return descriptor
    }

    /// The tag of the descriptor at the reader's position and a reader of its bytes: a size in one to four bytes of
    /// seven bits each, then that many bytes (fewer when the box ends first, as some writers leave them).
    private static func descriptor(in reader: inout BoxReader) throws(MP4Error) -> (tag: UInt8, reader: BoxReader) {
        let tag = try reader.readUInt8()
        var size = 0
        for _ in 0..<4 {
            let byte = try reader.readUInt8()
            size = size << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return (tag, try reader.child(byteCount: min(size, reader.remaining), path: reader.path))
    }

    /// An `esds` payload (version and flags included) for a video stream of `objectTypeIndication` whose decoder
    /// configuration is `decoderSpecificInfo` (an MPEG-4 Visual stream's VOS and VOL headers): what a movie written from
    /// another container's track carries.
    public static func payload(objectTypeIndication: UInt8, decoderSpecificInfo: [UInt8]) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            // The size in four bytes of seven bits each (the form every writer accepts).
            let size = body.count
            return [tag, UInt8(size >> 21 & 0x7F) | 0x80, UInt8(size >> 14 & 0x7F) | 0x80, UInt8(size >> 7 & 0x7F) | 0x80,
                    UInt8(size & 0x7F)] + body
        }
        let specific = decoderSpecificInfo.isEmpty ? [] : descriptor(decoderSpecificInfoTag, decoderSpecificInfo)
        // streamType 4 (visual) << 2 | upStream 0 | reserved 1; no buffer size or bit rates.
        let configuration = descriptor(decoderConfigTag, [objectTypeIndication, 0x11] + [UInt8](repeating: 0, count: 11) + specific)
        let slConfig = descriptor(0x06, [0x02])
        return [0, 0, 0, 0] + descriptor(esDescriptorTag, [0, 1, 0] + configuration + slConfig)
    }
}
