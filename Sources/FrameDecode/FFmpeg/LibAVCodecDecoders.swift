import MP4Box

/// Which of libavcodec's decoders reads a codec, by name (`avcodec_find_decoder_by_name`): what a build with the
/// `FFmpegDecoders` trait decodes beyond the default decoders, and what the errors of a build without it point to.
/// Known without linking libavcodec.
public enum LibAVCodecDecoders {
    /// The decoder's name for `description`'s codec, or nil when libavcodec (5.1, Debian 12's) has none for it or the
    /// codec needs what a sample entry does not carry (uncompressed video's pixel layout).
    public static func name(for description: VideoCodecDescription) -> String? {
        if let name = namesByCode[description.codingFormat] { return name }
        return namesByFamily[description.family]
    }

    private static let namesByFamily: [VideoCodecDescription.Family: String] = [
        .h264: "h264", .hevc: "hevc", .proRes: "prores", .mpeg4Visual: "mpeg4", .mpeg2Video: "mpeg2video",
        .mpeg1Video: "mpeg1video", .h263: "h263", .vc1: "vc1", .dv: "dvvideo", .dnxhd: "dnxhd", .jpeg2000: "jpeg2000",
        .motionJPEG: "mjpeg",
    ]

    /// Codes whose decoder is not their family's, or whose family is `.other`.
    private static let namesByCode: [FourCC: String] = [
        "SVQ1": "svq1", "SVQ3": "svq3", "cvid": "cinepak", "rle ": "qtrle", "icod": "aic", "mjpb": "mjpegb",
        "WMV3": "wmv3", "DIV3": "msmpeg4",
    ]
}
