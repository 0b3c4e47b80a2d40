import MP4Box

/// VP8 (vp08) and VP9 (vp09) through libvpx, the reference decoder: one frame (or VP9 superframe) per sample in,
/// 8-, 10- or 12-bit pictures out in the order they are shown (VP8 and VP9 do not reorder: a hidden frame is shown
/// later by a frame of its own).
public final class VPXDecoder: VideoDecoder {
    private var handle: VPXHandle
    private let configuration: CodecConfiguration
    private let colour: ColourDescription?
    private let limits: DecoderLimits
    private let threads: Int
    private var pending = PendingSamples()

    /// A decoder for `configuration` (VP8 or VP9). Every key frame's size is checked against `limits` before libvpx
    /// sees it.
    /// - Throws: `DecodeError` `unsupportedCodec` for another codec, `decoderUnavailable` when libvpx cannot open one.
    public init(configuration: CodecConfiguration, colour: ColourDescription?,
                threading: VideoDecoderFactory.Threading = .single, limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        guard configuration.codec == .vp8 || configuration.codec == .vp9 else {
            throw DecodeError(.unsupportedCodec, "VPXDecoder decodes VP8 and VP9, not \(configuration.codingFormat)")
        }
        try limits.admit(configuration, as: configuration.codec, decoder: "VPXDecoder")
        self.configuration = configuration
        self.colour = colour
        self.limits = limits
        threads = threading.threadCount
        handle = try VPXHandle(codec: configuration.codec, threads: threads)
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        let header: VideoParameters?
        do {
            header = try VPFrameHeader.parse(input.bytes, vp9: configuration.codec == .vp9)
        } catch {
            throw DecodeError(.malformedSample, sampleIndex: index, error.detail)
        }
        if let header { try limits.check(header, sampleIndex: index) }
        pending.sent(sampleIndex: index, compositionTime: input.sample.compositionTime)
        switch handle.decode(input.bytes, sampleIndex: index) {
        case .success(let pictures): return pictures.map(frame)
        case .failure(let failure):
            throw DecodeError(.decoderRejected, decoder: "libvpx", sampleIndex: index, "refused the frame: \(failure.text)")
        }
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] {
        switch handle.flush() {
        case .success(let pictures): return pictures.map(frame)
        case .failure(let failure): throw DecodeError(.decoderRejected, decoder: "libvpx", "could not flush: \(failure.text)")
        }
    }

    public func reset() throws(DecodeError) {
        handle = try VPXHandle(codec: configuration.codec, threads: threads)
        pending.removeAll()
    }

    private func frame(_ picture: LibraryPicture) -> DecodedFrame {
        picture.frame(containerColour: colour, compositionTime: pending.pictureCameOut(sampleIndex: picture.sampleIndex))
    }
}
