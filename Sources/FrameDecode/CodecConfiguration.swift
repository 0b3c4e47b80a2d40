import MP4Box

/// What a decoder needs from a sample entry: the codec, the NAL length size and the out-of-band parameter sets.
public struct CodecConfiguration: Sendable {
    /// The codecs decoded here.
    public enum Codec: Sendable {
        case h264, hevc, av1, vp8, vp9

        /// The codec's name as its standard gives it: H.264, HEVC, AV1, VP8, VP9.
        public var displayName: String {
            switch self {
            case .h264: "H.264"
            case .hevc: "HEVC"
            case .av1: "AV1"
            case .vp8: "VP8"
            case .vp9: "VP9"
            }
        }

        /// The codec a sample entry code (or an encrypted entry's original format) names; nil for one not decoded here.
        public init?(codingFormat: FourCC) {
            switch codingFormat {
            case "avc1", "avc3": self = .h264
            case "hvc1", "hev1": self = .hevc
            case "av01": self = .av1
            case "vp08": self = .vp8
            case "vp09": self = .vp9
            default: return nil
            }
        }

        /// Whether a sample holds one picture, so that sdtp's "no sample depends on this one" lets a decode leave it
        /// out: H.264 and HEVC access units. An AV1 temporal unit (a VP9 superframe) may hold hidden frames that later
        /// ones show or reference beside its one shown frame, and writers mark such units disposable when the shown
        /// frame is not a reference (media3's `sample_with_av1c.mp4`: without them dav1d refuses the frame that shows
        /// one).
        public var samplesAreSinglePictures: Bool { self == .h264 || self == .hevc }
    }

    /// The codec.
    public var codec: Codec
    /// The coding format (avc1, avc3, hvc1, hev1, av01): the sample entry code, or the original format of an encrypted
    /// entry.
    public var codingFormat: FourCC
    /// Bytes in each NAL unit length prefix (0 for AV1, whose samples are OBUs that carry their own sizes, and for
    /// VP8 and VP9, whose samples are frames).
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
        guard let codec = Codec(codingFormat: codingFormat) else {
            throw DecodeError(.unsupportedCodec, "no decoder for \(codingFormat)")
        }
        self.codec = codec
        switch codec {
        case .h264:
            guard let avcC = entry.avcConfiguration else {
                throw DecodeError(.badConfiguration, "\(codingFormat) sample entry has no avcC")
            }
            nalUnitLengthSize = avcC.nalUnitLengthSize
            parameterSets = avcC.sequenceParameterSets + avcC.pictureParameterSets
            switch entry.sequenceParameters {
            case .success(let parameters): videoParameters = parameters
            case .failure(let error): throw DecodeError(.badConfiguration, "avcC sequence parameter set: \(error.detail)")
            case nil: break
            }
            try Self.checkDecodable(videoParameters)
        case .hevc:
            guard let hvcC = entry.hevcConfiguration else {
                throw DecodeError(.badConfiguration, "\(codingFormat) sample entry has no hvcC")
            }
            nalUnitLengthSize = hvcC.nalUnitLengthSize
            parameterSets = hvcC.nalUnits(ofType: 32) + hvcC.nalUnits(ofType: 33) + hvcC.nalUnits(ofType: 34)
            // libde265 reads the SPS itself: one our reader cannot read only leaves the reorder depth at its default.
            if case .success(let parameters) = entry.sequenceParameters { videoParameters = parameters }
        case .av1:
            guard let av1C = entry.av1Configuration else {
                throw DecodeError(.badConfiguration, "av01 sample entry has no av1C")
            }
            nalUnitLengthSize = 0
            parameterSets = av1C.configOBUs.isEmpty ? [] : [av1C.configOBUs]
            switch entry.sequenceParameters {
            case .success(let parameters): videoParameters = parameters
            case .failure(let error): throw DecodeError(.badConfiguration, "av1C sequence header: \(error.detail)")
            case nil: break
            }
        case .vp8, .vp9:
            // Every key frame states its picture; vpcC, where there is one, restates the bit depth and the colour.
            nalUnitLengthSize = 0
            parameterSets = []
            if case .success(let parameters) = entry.sequenceParameters { videoParameters = parameters }
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
