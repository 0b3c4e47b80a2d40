import MP4Box

/// What a decoder needs from a sample entry: the codec, the NAL length size and the out-of-band parameter sets.
public struct CodecConfiguration: Sendable {
    /// The codecs decoded here.
    public enum Codec: Sendable {
        case h264, hevc, av1, vp8, vp9, motionJPEG, png

        /// The codec's name as its standard gives it: H.264, HEVC, AV1, VP8, VP9, Motion JPEG, PNG.
        public var displayName: String {
            switch self {
            case .h264: "H.264"
            case .hevc: "HEVC"
            case .av1: "AV1"
            case .vp8: "VP8"
            case .vp9: "VP9"
            case .motionJPEG: "Motion JPEG"
            case .png: "PNG"
            }
        }

        /// The codec of a sample entry code (or an encrypted entry's original format), Dolby Vision's codes by their base
        /// layer's codec; nil for one not decoded here.
        public init?(codingFormat: FourCC) {
            self.init(family: VideoCodecDescription.named(codingFormat: codingFormat).family)
        }

        /// The codec of a family; nil for one not decoded here.
        public init?(family: VideoCodecDescription.Family) {
            switch family {
            case .h264: self = .h264
            case .hevc: self = .hevc
            case .av1: self = .av1
            case .vp8: self = .vp8
            case .vp9: self = .vp9
            case .motionJPEG: self = .motionJPEG
            case .png: self = .png
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

    /// What the entry is coded as, in words (`VisualSampleEntry.codecDescription`).
    public var codecDescription: VideoCodecDescription

    /// Reads the configuration of a visual sample entry.
    /// - Throws: `DecodeError` `unsupportedCodec` (naming the codec and its profile) or `badConfiguration`, or
    ///   `unsupportedFeature` for H.264 that openh264 does not decode (interlaced, 4:2:2, 4:4:4, above 8 bits).
    public init(entry: VisualSampleEntry) throws(DecodeError) {
        codingFormat = entry.codingFormat
        codecDescription = entry.codecDescription
        // An mp4v entry may hold JPEG (its object type says so).
        guard let codec = Codec(family: codecDescription.family) else {
            throw DecodeError(.unsupportedCodec, "this build has no decoder for \(codecDescription)" + Self.traitHint(codecDescription))
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
            try Self.checkDecodable(videoParameters, description: codecDescription)
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
        case .motionJPEG, .png:
            // Every sample is a whole image with its own header.
            nalUnitLengthSize = 0
            parameterSets = []
        }
    }

    /// openh264 decodes progressive 8-bit 4:2:0 only: refuse the rest before decoding.
    static func checkDecodable(_ parameters: VideoParameters?, description: VideoCodecDescription) throws(DecodeError) {
        guard let parameters else { return }
        if parameters.isInterlaced || parameters.chromaFormat != 1 || parameters.bitDepthLuma != 8 {
            throw DecodeError(.unsupportedFeature, "openh264 decodes progressive 4:2:0 8-bit H.264 only, not \(description.stating(parameters))"
                                  + traitHint(description))
        }
    }

    /// What a build without the `FFmpegDecoders` trait adds to its refusal of a codec libavcodec decodes.
    static func traitHint(_ description: VideoCodecDescription) -> String {
        #if FFmpegDecoders
        return ""
        #else
        return LibAVCodecDecoders.name(for: description) == nil ? "" : "; a build with the FFmpegDecoders trait decodes it"
        #endif
    }
}
