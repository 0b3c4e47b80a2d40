import MP4Box

/// How large a picture a decoder may be asked to make, checked on every sequence parameter set before the decoder
/// library sees it (the sample entry's and every one in band), so that no SPS can make openh264, libde265 or dav1d
/// allocate past it (dav1d is also given the limit itself, and refuses any larger frame header).
///
/// A decoder holds at most 17 pictures (16 in its picture buffer, as both standards allow, and the one being
/// decoded), so its pictures take at most 17 x `maximumLumaSamples` x 1.5 bytes at 8-bit 4:2:0 (about 910 MB at
/// the default, twice that above 8 bits): lower the limit to lower that ceiling.
public struct DecoderLimits: Sendable, Hashable {
    /// The most luma samples any level of H.264 (6.2: 139,264 macroblocks of 256), HEVC (6.2: MaxLumaPs) or AV1
    /// (A.3: MaxPicSize of levels 6 and 7) allows.
    public static let largestLevelLumaSamples = 35_651_584

    /// Most luma samples (coded width x coded height) in one picture. Default `largestLevelLumaSamples`
    /// (8192 x 4352), so every stream within the standards' levels decodes.
    public var maximumLumaSamples = DecoderLimits.largestLevelLumaSamples

    /// The defaults.
    public init() {}

    /// Admits a decoder's configuration: it must be of `codec` (the one `decoder` decodes), and every sequence
    /// parameter set it carries out of band (H.264 and HEVC: the base layer's in avcC/hvcC; AV1: av1C's sequence
    /// header) must be readable and within the limits.
    /// - Throws: `DecodeError` `unsupportedCodec` for another codec; as `check(sequenceParameterSet:codec:sampleIndex:)`.
    func admit(_ configuration: CodecConfiguration, as codec: CodecConfiguration.Codec, decoder: String) throws(DecodeError) {
        guard configuration.codec == codec else {
            throw DecodeError(.unsupportedCodec, "\(decoder) decodes \(codec.displayName), not \(configuration.codingFormat)")
        }
        switch codec {
        case .h264, .hevc:
            for parameterSet in configuration.parameterSets where Self.isBaseLayerSequenceParameterSet(parameterSet, codec: codec) {
                try check(sequenceParameterSet: parameterSet, codec: codec, sampleIndex: nil)
            }
        case .av1, .vp8, .vp9, .motionJPEG, .png:
            if let parameters = configuration.videoParameters {
                try check(parameters, sampleIndex: nil)
            }
        }
    }

    /// Checks one sequence parameter set (H.264 NAL type 7, HEVC type 33 of the base layer, with its header; for AV1
    /// the payload of a sequence header OBU).
    /// - Throws: `DecodeError` `limitExceeded` when its pictures are larger than the limit; `badConfiguration`
    ///   (out of band, `sampleIndex` nil) or `malformedSample` (in band) when it cannot be read, since its
    ///   picture size then cannot be checked.
    /// - Returns: what the SPS says.
    @discardableResult
    func check<C: Collection>(sequenceParameterSet nal: C, codec: CodecConfiguration.Codec,
                              sampleIndex: Int?) throws(DecodeError) -> VideoParameters where C.Element == UInt8 {
        let parameters: VideoParameters
        do throws(MP4Error) {
            switch codec {
            case .h264: parameters = try H264SequenceParameterSet.parse(nal)
            case .hevc: parameters = try HEVCSequenceParameterSet.parse(nal)
            case .av1: parameters = try AV1SequenceHeader.parse(nal)
            case .vp8, .vp9:
                let header = try VPFrameHeader.parse(nal, vp9: codec == .vp9)
                guard let header else { throw MP4Error(.malformed, path: "", offset: 0, "not a key frame") }
                parameters = header
            case .motionJPEG, .png:
                // Their decoders check each image's header: there is no parameter set to read.
                throw MP4Error(.unsupported, path: "", offset: 0, "\(codec.displayName) has no sequence parameter sets")
            }
        } catch {
            throw DecodeError(sampleIndex == nil ? .badConfiguration : .malformedSample, sampleIndex: sampleIndex,
                              "unreadable sequence parameter set (\(error.detail)): its picture size cannot be checked")
        }
        try check(parameters, sampleIndex: sampleIndex)
        return parameters
    }

    /// Checks the picture size `parameters` state.
    /// - Throws: `DecodeError` `limitExceeded` past `maximumLumaSamples`.
    func check(_ parameters: VideoParameters, sampleIndex: Int?) throws(DecodeError) {
        try check(width: parameters.codedWidth, height: parameters.codedHeight, sampleIndex: sampleIndex, by: "the sequence parameter set")
    }

    /// Checks a picture size that `source` (a sequence parameter set, an image's header) asks for.
    /// - Throws: `DecodeError` `limitExceeded` past `maximumLumaSamples`.
    func check(width: Int, height: Int, sampleIndex: Int?, by source: String) throws(DecodeError) {
        let (samples, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || samples > maximumLumaSamples else { return }
        throw DecodeError(.limitExceeded, sampleIndex: sampleIndex,
                          "\(source) asks for \(width)x\(height) pictures, more than the limit of \(maximumLumaSamples) luma samples")
    }

    /// Checks every sequence parameter set among `units` (ranges of `bytes`, each a NAL unit with its header).
    /// - Returns: what each of them says, in order.
    @discardableResult
    func checkInBand(_ bytes: [UInt8], units: [Range<Int>], codec: CodecConfiguration.Codec,
                     sampleIndex: Int) throws(DecodeError) -> [VideoParameters] {
        var parameters: [VideoParameters] = []
        for range in units where !range.isEmpty && Self.isBaseLayerSequenceParameterSet(bytes[range], codec: codec) {
            parameters.append(try check(sequenceParameterSet: bytes[range], codec: codec, sampleIndex: sampleIndex))
        }
        return parameters
    }

    /// Whether a NAL unit is a sequence parameter set the decoder library reads: H.264 type 7, HEVC type 33 with
    /// nuh_layer_id 0 (libde265 decodes the base layer only; MV-HEVC's second-layer SPS has another syntax).
    static func isBaseLayerSequenceParameterSet<C: Collection>(_ nal: C, codec: CodecConfiguration.Codec) -> Bool
        where C.Element == UInt8 {
        guard let first = nal.first else { return false }
        switch codec {
        case .h264:
            return first & 0x1F == 7
        case .hevc:
            guard (first >> 1) & 0x3F == 33 else { return false }
            let second = nal.dropFirst().first ?? 0
            return (first & 1) == 0 && (second >> 3) == 0
        case .av1, .vp8, .vp9, .motionJPEG, .png:
            return false  // AV1 samples are OBUs and VP8/VP9 samples frames, not NAL units: their decoders check them
        }
    }
}
