/// A sample entry's codec configuration kept as stored, for codecs whose decoder takes it whole: QuickTime's `glbl`
/// (the "global header" ffmpeg writes for codecs with out-of-band data) and `dvc1` (VC-1's configuration, SMPTE RP
/// 2025). Bounded by the box, as every payload is.
public struct CodecPrivateBox: ParsableBox {
    public static let fourCC: FourCC = "glbl"
    public let header: BoxHeader
    /// The payload.
    public let payload: [UInt8]

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        payload = Array(reader.readRemaining())
    }
}
