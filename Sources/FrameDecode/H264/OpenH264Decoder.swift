import MP4Box

/// H.264 (avc1, avc3) through openh264: Annex B access units in, 8-bit 4:2:0 pictures out, cropped by the SPS.
///
/// openh264 keeps max_num_ref_frames + 2 pictures and cannot build a reference list longer than that, though the
/// standard lets a slice repeat pictures in its list (ref_pic_list_modification, each entry with its own weight:
/// 8 entries from an SPS that keeps 4). Every slice header is read before openh264 sees it; when one needs a longer
/// list, the decoder throws `restartFromKeyframe` and from its next `reset()` on gives openh264 sequence parameter
/// sets whose max_num_ref_frames makes room for it. openh264 then also keeps older reference pictures that the
/// stream's sliding window would have dropped: a P slice's list only gains entries past those the stream uses, so
/// its pictures are the standard's (ffmpeg's, bit for bit, in the tests); a B slice's first list could place them
/// before the later pictures, so B-frames of such a stream may differ.
public final class OpenH264Decoder: VideoDecoder {
    private var handle: OpenH264Handle
    private let configuration: CodecConfiguration
    /// Whether every sample is a keyframe decoded on its own.
    private let keyframesOnly: Bool
    private let colour: ColourDescription
    private let limits: DecoderLimits
    /// openh264 reorders pictures itself; the buffer only gives them their composition times and checks the order.
    private var reorder = ReorderBuffer(depth: 0)
    private var parameterSetsSent = false
    /// The reference list sizes of slice headers, from the parameter sets seen so far.
    private var sliceReferences = H264SliceReferences()
    /// The max_num_ref_frames given to openh264 in place of smaller ones, once a slice needed a longer list than
    /// the stream's leaves room for; nil until then. Kept across `reset()`.
    public private(set) var widenedMaxNumRefFrames: Int?
    /// The largest max_num_ref_frames openh264 takes (MAX_REF_PIC_COUNT).
    static let largestMaxNumRefFrames = 16
    /// The pictures openh264 keeps beyond max_num_ref_frames (GetTargetRefListSize in its decoder.cpp).
    static let extraPictures = 2

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
        for parameterSet in configuration.parameterSets { sliceReferences.add(parameterSet: parameterSet) }
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
        try checkReferenceLists(input.bytes, units: units, sampleIndex: index)
        let prefix = parameterSetsSent ? [] : configuration.parameterSets.map(sent)
        let annexB = LengthPrefixedNALUnits.annexB(input.bytes, units: units.filter {
            LengthPrefixedNALUnits.isH264BaseLayer(input.bytes[$0.lowerBound])
        }, prefix: prefix) { range in
            input.bytes[range.lowerBound] & 0x1F == 7 ? self.sent(Array(input.bytes[range])) : nil
        }
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

    /// A parameter set as openh264 is given it: an SPS of a level openh264 reads (`cappingLevel(of:)`), with
    /// max_num_ref_frames 0 for keyframes alone (openh264 sizes its picture pool by that number, and a keyframe refers
    /// to no other picture), or at least `widenedMaxNumRefFrames`; anything else as it is.
    private func sent(_ parameterSet: [UInt8]) -> [UInt8] {
        guard parameterSet.first.map({ $0 & 0x1F == 7 }) == true else { return parameterSet }
        let parameterSet = H264SequenceParameterSet.cappingLevel(of: parameterSet)
        if keyframesOnly {
            return H264SequenceParameterSet.settingMaxNumRefFrames(of: parameterSet, to: 0) ?? parameterSet
        }
        guard let widened = widenedMaxNumRefFrames,
              let own = H264SequenceParameterSet.maxNumRefFrames(of: parameterSet), own < widened else { return parameterSet }
        return H264SequenceParameterSet.settingMaxNumRefFrames(of: parameterSet, to: UInt32(widened)) ?? parameterSet
    }

    /// Reads the parameter sets and slice headers of a sample before openh264 does; a slice whose reference list is
    /// longer than openh264's pool widens the pool for the next `reset()` and throws `restartFromKeyframe`.
    private func checkReferenceLists(_ bytes: [UInt8], units: [Range<Int>], sampleIndex: Int) throws(DecodeError) {
        for range in units where !range.isEmpty {
            let type = bytes[range.lowerBound] & 0x1F
            if type == 7 || type == 8 {
                sliceReferences.add(parameterSet: bytes[range])
                continue
            }
            guard !keyframesOnly, let counts = sliceReferences.counts(ofSlice: bytes[range]) else { continue }
            let kept = max(counts.maxNumRefFrames, widenedMaxNumRefFrames ?? 0)
            guard counts.entries > kept + Self.extraPictures else { continue }
            let needed = counts.entries - Self.extraPictures
            guard needed <= Self.largestMaxNumRefFrames else {
                throw DecodeError(.unsupportedFeature, decoder: "openh264", sampleIndex: sampleIndex,
                                  "a slice uses \(counts.entries) reference list entries; openh264 holds at most "
                                  + "\(Self.largestMaxNumRefFrames + Self.extraPictures)")
            }
            widenedMaxNumRefFrames = needed
            throw DecodeError(.restartFromKeyframe, decoder: "openh264", sampleIndex: sampleIndex,
                              "a slice uses \(counts.entries) reference list entries, more than the \(kept + Self.extraPictures) "
                              + "pictures openh264 keeps for max_num_ref_frames \(kept); reset to keep \(needed)")
        }
    }

    /// Checks every SPS a sample brings against the limits; for avc3 files whose avcC carries none, the first one
    /// must also be progressive 8-bit 4:2:0.
    private func checkInBandParameterSets(_ bytes: [UInt8], units: [Range<Int>], sampleIndex: Int) throws(DecodeError) {
        let parameters = try limits.checkInBand(bytes, units: units, codec: .h264, sampleIndex: sampleIndex)
        guard configuration.videoParameters == nil, !parameterSetsSent else { return }
        for sequence in parameters { try CodecConfiguration.checkDecodable(sequence, description: configuration.codecDescription) }
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
