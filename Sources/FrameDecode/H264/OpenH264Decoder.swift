import MP4Box

/// H.264 (avc1, avc3) through openh264: Annex B access units in, 8-bit 4:2:0 pictures out, cropped by the SPS.
public final class OpenH264Decoder: VideoDecoder {
    private var handle: OpenH264Handle
    private let configuration: CodecConfiguration
    /// The parameter sets sent before the first sample: the avcC's, with max_num_ref_frames 0 for keyframes only.
    private let parameterSets: [[UInt8]]
    /// Whether every sample is a keyframe decoded on its own.
    private let keyframesOnly: Bool
    private let colour: ColourDescription
    private let limits: DecoderLimits
    /// openh264 reorders pictures itself; the buffer only gives them their composition times and checks the order.
    private var reorder = ReorderBuffer(depth: 0)
    private var parameterSetsSent = false

    /// A decoder for `configuration` (H.264 only); `colour` tags the pictures (colr or VUI); every sequence
    /// parameter set is checked against `limits` before openh264 sees it. With `keyframesOnly` (every sample a sync
    /// sample decoded on its own), openh264 is given the avcC's sequence parameter sets with max_num_ref_frames 0:
    /// it sizes its picture pool by that number, and a keyframe refers to no other picture, so the picture is the
    /// same and the reference pictures' memory is not taken (18 MB for a 1080p High profile stream with 4).
    /// - Throws: `DecodeError` `unsupportedCodec` for a configuration that is not H.264, `decoderUnavailable` when openh264
    ///   cannot create a decoder, `limitExceeded` or `badConfiguration` for an avcC SPS past `limits` or unreadable.
    public init(configuration: CodecConfiguration, colour: ColourDescription?, limits: DecoderLimits = DecoderLimits(),
                keyframesOnly: Bool = false) throws(DecodeError) {
        try limits.admit(configuration, as: .h264, decoder: "OpenH264Decoder")
        self.configuration = configuration
        self.keyframesOnly = keyframesOnly
        parameterSets = keyframesOnly ? configuration.parameterSets.map { parameterSet in
            guard parameterSet.first.map({ $0 & 0x1F == 7 }) == true else { return parameterSet }
            return H264SequenceParameterSet.settingMaxNumRefFrames(of: parameterSet, to: 0) ?? parameterSet
        } : configuration.parameterSets
        self.colour = colour ?? .unspecified
        self.limits = limits
        handle = try OpenH264Handle()
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        if keyframesOnly && !input.sample.isSync {
            throw DecodeError(.unsupportedFeature, decoder: "openh264", sampleIndex: index,
                              "a decoder made for keyframes alone was given a sample that is not one")
        }
        let units = try LengthPrefixedNALUnits.ranges(in: input.bytes, lengthSize: configuration.nalUnitLengthSize,
                                                      sampleIndex: index)
        try checkInBandParameterSets(input.bytes, units: units, sampleIndex: index)
        let prefix = parameterSetsSent ? [] : parameterSets
        let annexB = LengthPrefixedNALUnits.annexB(input.bytes, units: units.filter {
            LengthPrefixedNALUnits.isH264BaseLayer(input.bytes[$0.lowerBound])
        }, prefix: prefix)
        parameterSetsSent = true
        reorder.submitted(sampleIndex: index, compositionTime: input.sample.compositionTime)
        let (state, picture) = handle.decode(annexB, timestamp: UInt64(index))
        if OpenH264Handle.lacksParameterSets(state) {
            throw DecodeError(.missingParameterSets, decoder: "openh264", sampleIndex: index, "no sequence or picture parameter set before this picture")
        }
        if OpenH264Handle.isError(state) {
            throw DecodeError(.decoderRejected, decoder: "openh264", sampleIndex: index, "rejected the sample (state 0x\(String(state, radix: 16)))")
        }
        return reorder.add(picture.map { [copy($0)] } ?? [])
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] {
        handle.signalEndOfStream()
        var frames: [DecodedFrame] = []
        var attempts = 0
        while attempts < 64 {
            attempts += 1
            let (_, picture) = handle.flush()
            guard let picture else { break }
            frames.append(copy(picture))
        }
        return reorder.drain(adding: frames)
    }

    public func reset() throws(DecodeError) {
        // A new handle, or an error: never the old handle's state carried into the next decode.
        handle = try OpenH264Handle()
        reorder = ReorderBuffer(depth: 0)
        parameterSetsSent = false
    }

    /// Checks every SPS a sample brings against the limits; for avc3 files whose avcC carries none, the first one
    /// must also be progressive 8-bit 4:2:0.
    private func checkInBandParameterSets(_ bytes: [UInt8], units: [Range<Int>], sampleIndex: Int) throws(DecodeError) {
        let parameters = try limits.checkInBand(bytes, units: units, codec: .h264, sampleIndex: sampleIndex)
        guard configuration.videoParameters == nil, !parameterSetsSent else { return }
        for sequence in parameters { try CodecConfiguration.checkDecodable(sequence) }
    }

    private func copy(_ picture: OpenH264Handle.Picture) -> DecodedFrame {
        let index = Int(picture.timestamp)
        let chromaWidth = (picture.width + 1) / 2
        let chromaHeight = (picture.height + 1) / 2
        let sizes = [(picture.width, picture.height, picture.strides.luma),
                     (chromaWidth, chromaHeight, picture.strides.chroma),
                     (chromaWidth, chromaHeight, picture.strides.chroma)]
        var planes: [DecodedFrame.Plane] = []
        for (plane, (width, height, stride)) in sizes.enumerated() {
            let source = picture.planes[plane]
            let data = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
                guard let base = buffer.baseAddress else { count = 0; return }
                for row in 0..<height {
                    (base + row * width).update(from: source + row * stride, count: width)
                }
                count = width * height
            }
            planes.append(DecodedFrame.Plane(width: width, height: height, bytesPerRow: width, data: data))
        }
        let compositionTime = reorder.compositionTime(ofPictureFrom: index)
        return DecodedFrame(planes: planes, bitDepth: 8, chromaFormat: .yuv420, colour: colour,
                            sampleIndex: index, compositionTime: compositionTime)
    }
}
