import MP4Box

/// AV1 (av01) through dav1d: temporal units of OBUs in, 8-, 10- or 12-bit pictures out (one per temporal unit, in
/// presentation order: AV1 shows frames in the order its temporal units come).
public final class Dav1dDecoder: VideoDecoder {
    private var handle: Dav1dHandle
    private let configuration: CodecConfiguration
    private let colour: ColourDescription?
    private let limits: DecoderLimits
    private let threads: Int
    private var configurationSent = false
    /// dav1d outputs pictures in the order it is given temporal units; only their composition times are kept here.
    private var pending = PendingSamples()

    /// A decoder for `configuration` (AV1 only). `threading` `.workers(n)` lets dav1d use n threads, for runs of
    /// frames. The av1C sequence header and every one in band are checked against `limits` before dav1d sees them,
    /// and dav1d itself refuses any frame larger than the limit.
    /// - Throws: `DecodeError` `unsupportedCodec` for a configuration that is not AV1, `decoderUnavailable` when dav1d
    ///   cannot open a decoder, `limitExceeded` for an av1C sequence header past `limits`.
    public init(configuration: CodecConfiguration, colour: ColourDescription?,
                threading: VideoDecoderFactory.Threading = .single, limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        try limits.admit(configuration, as: .av1, decoder: "Dav1dDecoder")
        self.configuration = configuration
        self.colour = colour
        self.limits = limits
        threads = threading.threadCount
        handle = try Dav1dHandle(threads: threads, frameSizeLimit: limits.maximumLumaSamples)
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        let units: [AV1OBU]
        do {
            units = try AV1OBU.units(in: input.bytes, name: "sample")
        } catch {
            throw DecodeError(.malformedSample, sampleIndex: index, "\(error.detail) at byte \(error.offset) of the sample")
        }
        let sequenceHeaders = units.filter { $0.type == AV1OBU.sequenceHeaderType }
        for header in sequenceHeaders {
            try limits.check(sequenceParameterSet: input.bytes[header.payload], codec: .av1, sampleIndex: index)
        }
        var pictures: [LibraryPicture] = []
        if !configurationSent {
            if let configOBUs = configuration.parameterSets.first, !configOBUs.isEmpty {
                switch handle.send(configOBUs, timestamp: Int64(index)) {
                case .success(let ready): pictures += ready
                case .failure(let failure):
                    throw DecodeError(.badConfiguration, decoder: "dav1d", sampleIndex: index, "refused the av1C configOBUs: \(failure.text)")
                }
            } else if sequenceHeaders.isEmpty {
                throw DecodeError(.missingParameterSets, decoder: "dav1d", sampleIndex: index, "no sequence header before this temporal unit")
            }
            configurationSent = true
        }
        pending.sent(sampleIndex: index, compositionTime: input.sample.compositionTime)
        switch handle.send(input.bytes, timestamp: Int64(index)) {
        case .success(let ready): pictures += ready
        case .failure(let failure):
            throw DecodeError(.decoderRejected, decoder: "dav1d", sampleIndex: index, "refused the temporal unit: \(failure.text)")
        }
        return pictures.map(frame)
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] {
        switch handle.takePictures() {
        case .success(let pictures): return pictures.map(frame)
        case .failure(let failure): throw DecodeError(.decoderRejected, decoder: "dav1d", "could not flush: \(failure.text)")
        }
    }

    public func reset() throws(DecodeError) {
        // A new context, or an error: never the old one's references carried into the next decode.
        handle = try Dav1dHandle(threads: threads, frameSizeLimit: limits.maximumLumaSamples)
        pending.removeAll()
        configurationSent = false
    }

    private func frame(_ picture: LibraryPicture) -> DecodedFrame {
        picture.frame(containerColour: colour,
                      compositionTime: pending.pictureCameOut(sampleIndex: picture.sampleIndex))
    }
}
