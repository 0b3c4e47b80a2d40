/// What a sequence parameter set says about the picture: coded size, cropping, format and colour.
public struct VideoParameters: Sendable, Equatable {
    /// Width of the decoded picture before cropping, in luma samples.
    public var codedWidth: Int
    /// Height of the decoded picture before cropping, in luma samples.
    public var codedHeight: Int
    /// Luma samples cropped from the left (conformance window / frame cropping).
    public var cropLeft: Int
    /// Luma samples cropped from the right.
    public var cropRight: Int
    /// Luma samples cropped from the top.
    public var cropTop: Int
    /// Luma samples cropped from the bottom.
    public var cropBottom: Int
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormat: Int
    /// Luma bit depth.
    public var bitDepthLuma: Int
    /// Chroma bit depth.
    public var bitDepthChroma: Int
    /// Whether the stream codes fields (H.264 frame_mbs_only_flag = 0).
    public var isInterlaced: Bool
    /// Whether macroblock-adaptive frame/field coding is on (H.264 mb_adaptive_frame_field_flag).
    public var isMBAFF: Bool
    /// Sample aspect ratio from the VUI, if stated.
    public var sampleAspectRatio: (Int, Int)?
    /// Colour description from the VUI, if stated.
    public var colour: ColourDescription?
    /// Profile indication (H.264 profile_idc, HEVC general_profile_idc).
    public var profile: Int
    /// Level indication.
    public var level: Int
    /// Most pictures that may precede any picture in decode order and follow it in output order
    /// (HEVC sps_max_num_reorder_pics of the highest sub-layer), when the SPS says.
    public var maxReorderPictures: Int? = nil

    /// Width after cropping.
    public var width: Int { max(0, codedWidth - cropLeft - cropRight) }
    /// Height after cropping.
    public var height: Int { max(0, codedHeight - cropTop - cropBottom) }

    public static func == (lhs: VideoParameters, rhs: VideoParameters) -> Bool {
        lhs.codedWidth == rhs.codedWidth && lhs.codedHeight == rhs.codedHeight && lhs.cropLeft == rhs.cropLeft
            && lhs.cropRight == rhs.cropRight && lhs.cropTop == rhs.cropTop && lhs.cropBottom == rhs.cropBottom
            && lhs.chromaFormat == rhs.chromaFormat && lhs.bitDepthLuma == rhs.bitDepthLuma
            && lhs.bitDepthChroma == rhs.bitDepthChroma && lhs.isInterlaced == rhs.isInterlaced && lhs.isMBAFF == rhs.isMBAFF
            && lhs.sampleAspectRatio?.0 == rhs.sampleAspectRatio?.0 && lhs.sampleAspectRatio?.1 == rhs.sampleAspectRatio?.1
            && lhs.colour == rhs.colour && lhs.profile == rhs.profile && lhs.level == rhs.level
            && lhs.maxReorderPictures == rhs.maxReorderPictures
    }
}
