#if FFmpegDecoders
import MP4Box

/// What the default decoders refuse, through libavcodec (the `FFmpegDecoders` trait): interlaced H.264 and its 4:2:2,
/// 4:4:4 and 10-bit profiles, MPEG-2, MPEG-4 Part 2, H.263, ProRes, VC-1, DV, DNxHD and the like, from the same
/// sample bytes the demuxers fetch. Pictures come out in presentation order as libavcodec reorders them; an interlaced
/// one says which field comes first (`DecodedFrame.fieldOrder`), and the renderer deinterlaces it.
public final class FFmpegDecoder: VideoDecoder {
    private let handle: AVCodecHandle
    private let decoderName: String
    private let colour: ColourDescription?
    private var pending = PendingSamples()

    /// A decoder for `entry` (its codec named by `LibAVCodecDecoders`), given the entry's configuration record
    /// (avcC, esds's DecoderSpecificInfo, glbl, dvc1) as libavcodec's extradata.
    /// - Throws: `DecodeError` `unsupportedCodec` when libavcodec has no decoder for the codec, `decoderUnavailable`
    ///   when it cannot open one, `limitExceeded` for an entry larger than `limits`.
    public init(entry: VisualSampleEntry, colour: ColourDescription?, threading: VideoDecoderFactory.Threading = .single,
                limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        let description = entry.codecDescription
        guard let name = LibAVCodecDecoders.name(for: description) else {
            throw DecodeError(.unsupportedCodec, "no decoder for \(description), libavcodec's included")
        }
        try limits.check(width: Int(entry.width), height: Int(entry.height), sampleIndex: nil, by: "the sample entry")
        do {
            handle = try AVCodecHandle(decoder: name, extradata: Self.extradata(of: entry), width: Int(entry.width),
                                       height: Int(entry.height), threads: threading.threadCount,
                                       maximumPixels: limits.maximumLumaSamples)
        } catch {
            throw DecodeError(.decoderUnavailable, decoder: "libavcodec", error.text)
        }
        decoderName = name
        self.colour = colour
    }

    /// What libavcodec is given out of band: the whole avcC record, MPEG-4's DecoderSpecificInfo, QuickTime's glbl,
    /// or VC-1's dvc1 after its 7 bytes of profile, level and flags (SMPTE RP 2025).
    static func extradata(of entry: VisualSampleEntry) -> [UInt8] {
        if let avcC = entry.avcConfiguration { return Array(avcC.record) }
        if let esds = entry.elementaryStreamDescriptor, !esds.decoderSpecificInfo.isEmpty { return esds.decoderSpecificInfo }
        if let stored = entry.codecPrivate { return stored.header.type == "dvc1" ? Array(stored.payload.dropFirst(7)) : stored.payload }
        return []
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        pending.sent(sampleIndex: index, compositionTime: input.sample.compositionTime)
        switch handle.decode(input.bytes, tag: Int64(index)) {
        case .success(let pictures): return pictures.map(frame)
        case .failure(let failure):
            throw DecodeError(.decoderRejected, decoder: "libavcodec \(decoderName)", sampleIndex: index, "refused the sample: \(failure.text)")
        }
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] {
        defer { handle.flushBuffers() }
        switch handle.drain() {
        case .success(let pictures): return pictures.map(frame)
        case .failure(let failure): throw DecodeError(.decoderRejected, decoder: "libavcodec \(decoderName)", "could not flush: \(failure.text)")
        }
    }

    public func reset() throws(DecodeError) {
        handle.flushBuffers()
        pending.removeAll()
    }

    private func frame(_ picture: LibraryPicture) -> DecodedFrame {
        picture.frame(containerColour: colour, compositionTime: pending.pictureCameOut(sampleIndex: picture.sampleIndex))
    }
}
#endif
