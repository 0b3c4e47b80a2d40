import MP4Box

/// HEVC (hvc1, hev1) through libde265: NAL units in, 8- or 10-bit pictures out, cropped by the conformance window.
public final class De265Decoder: VideoDecoder {
    private let handle: De265Handle
    private let configuration: CodecConfiguration
    private let colour: ColourDescription?
    private let limits: DecoderLimits
    private var reorder: ReorderBuffer
    private var parameterSetsSent = false
    /// Parameter sets already given to libde265, by bytes.
    private var sentParameterSets: Set<[UInt8]> = []

    /// A decoder for `configuration` (HEVC only). `threading` `.workers(n)` starts n libde265 threads, for runs of frames.
    /// Every sequence parameter set is checked against `limits` before libde265 sees it.
    /// - Throws: `DecodeError` `unsupportedCodec` for a configuration that is not HEVC, `decoderUnavailable` when libde265
    ///   cannot create a decoder, `limitExceeded` or `badConfiguration` for an hvcC SPS past `limits` or unreadable.
    public init(configuration: CodecConfiguration, colour: ColourDescription?,
                threading: VideoDecoderFactory.Threading = .single, limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        try limits.admit(configuration, as: .hevc, decoder: "De265Decoder")
        self.configuration = configuration
        self.colour = colour
        self.limits = limits
        let threads: Int = switch threading {
        case .single: 0
        case .workers(let count): max(0, min(count, 16))
        }
        handle = try De265Handle(workerThreads: threads)
        // libde265 hands pictures over as soon as they are decoded: order them by the SPS's reorder depth
        // (16, the most HEVC allows, when the SPS is in band only).
        reorder = ReorderBuffer(depth: configuration.videoParameters?.maxReorderPictures ?? 16)
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        let units = try LengthPrefixedNALUnits.ranges(in: input.bytes, lengthSize: configuration.nalUnitLengthSize, sampleIndex: index)
        try limits.checkInBand(input.bytes, units: units, codec: .hevc, sampleIndex: index)
        if !parameterSetsSent {
            for parameterSet in configuration.parameterSets {
                if let failure = handle.push(nal: parameterSet[...], timestamp: Int64(index)) {
                    throw DecodeError(.badConfiguration, decoder: "libde265", sampleIndex: index, "refused a parameter set: \(failure)")
                }
                sentParameterSets.insert(parameterSet)
            }
            if configuration.parameterSets.isEmpty {
                let inBand = units.contains { range in (input.bytes[range.lowerBound] >> 1) & 0x3F == 33 }
                guard inBand else {
                    throw DecodeError(.missingParameterSets, decoder: "libde265", sampleIndex: index, "no sequence parameter set before this picture")
                }
            }
            parameterSetsSent = true
        }
        reorder.submitted(sampleIndex: index, compositionTime: input.sample.compositionTime)
        for range in units {
            // libde265 starts a new coded video sequence when a parameter set arrives again, even an identical
            // one, and then drops the RASL pictures of the next CRA that ffmpeg (and the standard) decode.
            // An identical repeat carries nothing new: skip it.
            let type = (input.bytes[range.lowerBound] >> 1) & 0x3F
            if (32...34).contains(type) {
                let parameterSet = Array(input.bytes[range])
                if sentParameterSets.contains(parameterSet) { continue }
                sentParameterSets.insert(parameterSet)
            }
            if let failure = handle.push(nal: input.bytes[range], timestamp: Int64(index)) {
                throw DecodeError(.decoderRejected, decoder: "libde265", sampleIndex: index, "refused a nal unit: \(failure)")
            }
        }
        handle.endOfFrame()
        let (pictures, status) = handle.decodePending()
        if case .failed(let reason) = status {
            throw DecodeError(.decoderRejected, decoder: "libde265", sampleIndex: index, reason)
        }
        return reorder.add(pictures.map(frame))
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] {
        if let failure = handle.endOfStream() {
            throw DecodeError(.decoderRejected, decoder: "libde265", "could not flush: \(failure)")
        }
        let (pictures, status) = handle.decodePending()
        if case .failed(let reason) = status {
            throw DecodeError(.decoderRejected, decoder: "libde265", reason)
        }
        return reorder.drain(adding: pictures.map(frame))
    }

    public func reset() throws(DecodeError) {
        handle.reset()
        reorder = ReorderBuffer(depth: reorder.depth)
        sentParameterSets.removeAll()
        parameterSetsSent = false
    }

    private func frame(_ picture: LibraryPicture) -> DecodedFrame {
        picture.frame(containerColour: colour,
                      compositionTime: reorder.compositionTime(ofPictureFrom: picture.sampleIndex))
    }
}
