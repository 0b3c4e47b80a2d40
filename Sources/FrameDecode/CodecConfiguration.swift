import MP4Box

/// What a decoder needs from a sample entry: the codec, the NAL length size and the out-of-band parameter sets.
public struct CodecConfiguration: Sendable {
    /// The codecs decoded here.
    public enum Codec: Sendable {
        case h264, hevc, av1
    }

    /// The codec.
    public var codec: Codec
    /// The coding format (avc1, avc3, hvc1, hev1, av01): the sample entry code, or the original format of an encrypted
    /// entry.
    public var codingFormat: FourCC
    /// Bytes in each NAL unit length prefix (0 for AV1, whose samples are OBUs that carry their own sizes).
    public var nalUnitLengthSize: Int
    /// Parameter sets to send before the first picture, in order: H.264 SPS and PPS, HEVC VPS, SPS and PPS, without
    /// start codes; for AV1 one element, av1C's configOBUs as stored (the sequence header OBU), when it has any.
    public var parameterSets: [[UInt8]]
    /// What the first SPS (AV1: the sequence header) says, when there is one out of band.
    public var videoParameters: VideoParameters?

    /// Reads the configuration of a visual sample entry.
    /// - Throws: `DecodeError` `unsupportedCodec` or `badConfiguration`, or `unsupportedFeature` for interlaced H.264.
    public init(entry: VisualSampleEntry) throws(DecodeError) {
        codingFormat = entry.codingFormat
        switch codingFormat {
        case "avc1", "avc3":
            guard let avcC = entry.avcConfiguration else {
                throw DecodeError(.badConfiguration, "\(codingFormat) sample entry has no avcC")
            }
            codec = .h264
            nalUnitLengthSize = avcC.nalUnitLengthSize
            parameterSets = avcC.sequenceParameterSets + avcC.pictureParameterSets
            switch entry.sequenceParameters {
            case .success(let parameters): videoParameters = parameters
            case .failure(let error): throw DecodeError(.badConfiguration, "avcC sequence parameter set: \(error.detail)")
            case nil: break
            }
            try Self.checkDecodable(videoParameters)
        case "hvc1", "hev1":
            guard let hvcC = entry.hevcConfiguration else {
                throw DecodeError(.badConfiguration, "\(codingFormat) sample entry has no hvcC")
            }
            codec = .hevc
            nalUnitLengthSize = hvcC.nalUnitLengthSize
            parameterSets = hvcC.nalUnits(ofType: 32) + hvcC.nalUnits(ofType: 33) + hvcC.nalUnits(ofType: 34)
            // libde265 reads the SPS itself: one our reader cannot read only leaves the reorder depth at its default.
            if case .success(let parameters) = entry.sequenceParameters { videoParameters = parameters }
        case "av01":
            guard let av1C = entry.av1Configuration else {
                throw DecodeError(.badConfiguration, "av01 sample entry has no av1C")
            }
            codec = .av1
            nalUnitLengthSize = 0
            parameterSets = av1C.configOBUs.isEmpty ? [] : [av1C.configOBUs]
            switch entry.sequenceParameters {
            case .success(let parameters): videoParameters = parameters
            case .failure(let error): throw DecodeError(.badConfiguration, "av1C sequence header: \(error.detail)")
            case nil: break
            }
        default:
            throw DecodeError(.unsupportedCodec, "no decoder for \(codingFormat)")
        }
    }

    /// openh264 decodes progressive 8-bit 4:2:0 only: refuse the rest before decoding.
    static func checkDecodable(_ parameters: VideoParameters?) throws(DecodeError) {
        guard let parameters else { return }
        if parameters.isInterlaced {
            throw DecodeError(.unsupportedFeature, "interlaced h.264 (field or mbaff coding) is not supported by openh264")
        }
        if parameters.chromaFormat != 1 || parameters.bitDepthLuma != 8 {
            throw DecodeError(.unsupportedFeature,
                              "h.264 with chroma format \(parameters.chromaFormat) at \(parameters.bitDepthLuma) bits is not supported by openh264")
        }
    }
}
