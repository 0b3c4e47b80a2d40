import Matroska
import MP4Box

extension MatroskaTrack {
    /// The sample entry code an MP4 gives the track's codec (`VideoCodecDescription` names it): by its CodecID, and
    /// for `V_MS/VFW/FOURCC` by the BITMAPINFOHEADER's compression code in CodecPrivate, for `V_QUICKTIME` by the
    /// QuickTime sample description's; nil for a CodecID no MP4 code stands for.
    var codingFormat: FourCC? {
        switch codecID {
        case "V_MPEG4/ISO/AVC": return "avc1"
        case "V_MPEGH/ISO/HEVC": return "hvc1"
        case "V_MPEGI/ISO/VVC": return "vvc1"
        case "V_AV1": return "av01"
        case "V_VP8": return "vp08"
        case "V_VP9": return "vp09"
        case "V_MJPEG": return "jpeg"
        case "V_MPEG4/ISO/SP", "V_MPEG4/ISO/ASP", "V_MPEG4/ISO/AP": return "mp4v"
        case "V_MPEG2": return "mp2v"
        case "V_MPEG1": return "m1v "
        case "V_PRORES": return codecPrivate.count == 4 ? Self.fourCC(codecPrivate[...]) : "apcn"
        case "V_UNCOMPRESSED": return "raw "
        case "V_MS/VFW/FOURCC":
            // BITMAPINFOHEADER: biSize, biWidth, biHeight (4 bytes each), biPlanes, biBitCount (2 each), biCompression.
            guard codecPrivate.count >= 20 else { return nil }
            let code = Self.fourCC(codecPrivate[16..<20])
            return Self.windowsCodes[code] ?? code
        case "V_QUICKTIME":
            // A QuickTime sample description: its size, then its code.
            guard codecPrivate.count >= 8 else { return nil }
            return Self.fourCC(codecPrivate[4..<8])
        default: return nil
        }
    }

    /// Video for Windows compression codes and the MP4 code of their codec.
    private static let windowsCodes: [FourCC: FourCC] = [
        "MJPG": "jpeg", "mjpg": "jpeg", "AVRn": "jpeg", "AVDJ": "AVDJ", "dmb1": "dmb1",
        "XVID": "mp4v", "xvid": "mp4v", "DIVX": "mp4v", "divx": "mp4v", "DX50": "mp4v", "FMP4": "mp4v", "MP4V": "mp4v",
        "H264": "avc1", "h264": "avc1", "X264": "avc1", "x264": "avc1", "AVC1": "avc1",
        "HEVC": "hvc1", "H265": "hvc1", "WVC1": "vc-1", "WMV3": "WMV3", "DIV3": "DIV3", "div3": "DIV3", "MPG2": "mp2v", "mpg2": "mp2v", "MPNG": "png ",
        "H263": "s263", "h263": "s263", "s263": "s263",
    ]

    private static func fourCC(_ bytes: ArraySlice<UInt8>) -> FourCC {
        FourCC(rawValue: bytes.reduce(0) { $0 << 8 | UInt32($1) })
    }
}
