/// What a visual sample entry is coded as, in the words people know it by: the codec, its profile, its chroma format
/// and bit depth, whether it is interlaced, and the Dolby Vision configuration that may sit on top. It names every
/// codec a movie may hold, decodable here or not (`thumbs info`, and the errors of a build without a decoder for it).
public struct VideoCodecDescription: Sendable, Equatable, CustomStringConvertible {
    /// The codec, as decoders tell codecs apart.
    public enum Family: String, Sendable, CaseIterable {
        case h264, hevc, av1, vp8, vp9, vvc, motionJPEG, png, proRes, mpeg4Visual, mpeg2Video, mpeg1Video, h263, vc1, dv, dnxhd
        case jpeg2000, uncompressed, other
    }

    /// Dolby Vision on top of the base codec (`dvhe`, `dvh1`, `dvav`, `dva1`, `dav1`, or a `dvcC`/`dvvC` beside
    /// another configuration).
    public struct DolbyVision: Sendable, Equatable {
        /// The profile as Dolby names it: 5, 7, 8.1, 8.4, 9, 10.1, ...
        public var profile: String
        /// dv_profile alone.
        public var profileNumber: Int
        /// dv_bl_signal_compatibility_id.
        public var baseLayerCompatibility: Int
        /// What the base layer is to a player without Dolby Vision: HDR10, SDR, HLG, or IPTPQc2 colours.
        public var baseLayer: String
    }

    /// The codec.
    public var family: Family
    /// The sample entry's code (the original format of an encrypted entry).
    public var codingFormat: FourCC
    /// The codec's name: H.264, HEVC, Apple ProRes 422 HQ, Motion JPEG, MPEG-4 Part 2 Visual, ...
    public var name: String
    /// The profile (and level, where it says more), when the configuration names one: High 4:4:4 Predictive, Main 10,
    /// Advanced Simple, ...
    public var profile: String?
    /// Chroma format and bit depth, when the configuration says: 4:2:0 8-bit, 4:2:2 10-bit, ...
    public var format: String?
    /// Whether the stream codes fields (H.264 without frame_mbs_only_flag; two fields per sample by `fiel`).
    public var isInterlaced: Bool
    /// Dolby Vision, where the entry says so.
    public var dolbyVision: DolbyVision?

    /// Makes a description.
    public init(family: Family, codingFormat: FourCC, name: String, profile: String? = nil, format: String? = nil,
                isInterlaced: Bool = false, dolbyVision: DolbyVision? = nil) {
        self.family = family
        self.codingFormat = codingFormat
        self.name = name
        self.profile = profile
        self.format = format
        self.isInterlaced = isInterlaced
        self.dolbyVision = dolbyVision
    }

    /// What a picture of this codec shows wrongly, though it decodes: Dolby Vision profile 5's IPTPQc2 colours, which
    /// only a Dolby Vision decoder converts (its base layer is shown as if it were Y'CbCr).
    public var caveats: [String] {
        guard dolbyVision?.profileNumber == 5 else { return [] }
        return ["Dolby Vision profile 5 codes IPTPQc2 colours, which only a Dolby Vision decoder converts: its pictures are "
                    + "shown as if they were Y'CbCr, and their colours are not SDR-correct"]
    }

    /// "Dolby Vision profile 8.1 (HDR10 base) on HEVC Main 10, Main tier, level 5.1, 4:2:0 10-bit (dvh1)", "Apple
    /// ProRes 422 HQ (apch)".
    public var description: String { "\(summary) (\(codingFormat))" }

    /// The description without the sample entry's code.
    public var summary: String {
        var text = name + (profile.map { " " + $0 } ?? "")
        if let dolbyVision { text = "Dolby Vision profile \(dolbyVision.profile) (\(dolbyVision.baseLayer) base) on " + text }
        let traits = [format, isInterlaced ? "interlaced" : nil].compactMap(\.self)
        if !traits.isEmpty { text += ", " + traits.joined(separator: ", ") }
        return text
    }

    /// This description with the chroma format, bit depth and interlacing a sequence parameter set states (one in band,
    /// where the configuration record has none).
    public func stating(_ parameters: VideoParameters) -> VideoCodecDescription {
        var description = self
        description.format = Self.format(chroma: parameters.chromaFormat, bitDepth: parameters.bitDepthLuma)
        description.isInterlaced = description.isInterlaced || parameters.isInterlaced
        return description
    }

    /// "4:2:0 8-bit", "monochrome 10-bit".
    static func format(chroma: Int, bitDepth: Int) -> String {
        let name = [0: "monochrome", 1: "4:2:0", 2: "4:2:2", 3: "4:4:4"][chroma] ?? "chroma format \(chroma)"
        return "\(name) \(bitDepth)-bit"
    }

    /// The family and name a sample entry code gives, before its configuration says more; an unknown code is
    /// `.other`, named by the code.
    public static func named(codingFormat code: FourCC) -> (family: Family, name: String) {
        if let known = namesByCode[code] { return known }
        let text = code.description
        if text.hasPrefix("hdv") || text.hasPrefix("xdv") || text.hasPrefix("xd5") || text.hasPrefix("mx") && text.count == 4
            && text.dropFirst(2).first?.isNumber == true {
            return (.mpeg2Video, "MPEG-2 Video")
        }
        return (.other, "unknown video codec '\(text)'")
    }

    private static let namesByCode: [FourCC: (family: Family, name: String)] = {
        var names: [FourCC: (family: Family, name: String)] = [:]
        for code: FourCC in ["avc1", "avc2", "avc3", "avc4", "dvav", "dva1"] { names[code] = (.h264, "H.264") }
        for code: FourCC in ["hvc1", "hev1", "hvc2", "hev2", "dvhe", "dvh1"] { names[code] = (.hevc, "HEVC") }
        for code: FourCC in ["av01", "dav1"] { names[code] = (.av1, "AV1") }
        names["vp08"] = (.vp8, "VP8")
        names["vp09"] = (.vp9, "VP9")
        for code: FourCC in ["vvc1", "vvi1"] { names[code] = (.vvc, "VVC (H.266)") }
        names["jpeg"] = (.motionJPEG, "Motion JPEG")
        names["mjpa"] = (.motionJPEG, "Motion JPEG format A")
        names["AVDJ"] = (.motionJPEG, "Avid Motion JPEG")
        names["dmb1"] = (.motionJPEG, "Matrox Motion JPEG")
        names["mjpb"] = (.other, "Motion JPEG format B")
        names["png "] = (.png, "PNG")
        names["apco"] = (.proRes, "Apple ProRes 422 Proxy")
        names["apcs"] = (.proRes, "Apple ProRes 422 LT")
        names["apcn"] = (.proRes, "Apple ProRes 422")
        names["apch"] = (.proRes, "Apple ProRes 422 HQ")
        names["ap4h"] = (.proRes, "Apple ProRes 4444")
        names["ap4x"] = (.proRes, "Apple ProRes 4444 XQ")
        names["mp4v"] = (.mpeg4Visual, "MPEG-4 Part 2 Visual")
        for code: FourCC in ["s263", "h263", "H263"] { names[code] = (.h263, "H.263") }
        for code: FourCC in ["m2v1", "mp2v", "xdhd", "xdh2"] { names[code] = (.mpeg2Video, "MPEG-2 Video") }
        for code: FourCC in ["mpeg", "m1v1", "m1v "] { names[code] = (.mpeg1Video, "MPEG-1 Video") }
        names["vc-1"] = (.vc1, "VC-1")
        for code: FourCC in ["dvc ", "dvcp", "dvpp", "dv5n", "dv5p", "dvh2", "dvh3", "dvh4", "dvh5", "dvh6", "dvhp", "dvhq"] {
            names[code] = (.dv, "DV")
        }
        names["AVdn"] = (.dnxhd, "Avid DNxHD")
        names["AVdh"] = (.dnxhd, "Avid DNxHR")
        names["mjp2"] = (.jpeg2000, "Motion JPEG 2000")
        for code: FourCC in ["raw ", "2vuy", "yuv2", "v210", "v410", "uncv", "yuvs"] { names[code] = (.uncompressed, "uncompressed video") }
        names["SVQ1"] = (.other, "Sorenson Video")
        names["SVQ3"] = (.other, "Sorenson Video 3")
        names["cvid"] = (.other, "Cinepak")
        names["rle "] = (.other, "QuickTime Animation")
        names["icod"] = (.other, "Apple Intermediate Codec")
        names["lvc1"] = (.other, "LCEVC")
        names["WMV3"] = (.other, "Windows Media Video 9")
        names["DIV3"] = (.other, "Microsoft MPEG-4 version 3")
        return names
    }()
}
