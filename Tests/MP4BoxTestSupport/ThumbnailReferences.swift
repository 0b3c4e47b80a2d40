import Foundation

/// ffmpeg's thumbnails of the fixtures' reference frames (Fixtures/make-thumbnail-references.sh), and how close
/// ours must come to them.
public enum ThumbnailReferences {
    /// Fixtures with decode references and thumbnails.
    public static let fixtures = FrameReferences.names.filter { name in
        FileManager.default.fileExists(atPath: path(name, role: "firstFrame"))
    }

    /// The path of ffmpeg's thumbnail of `name`'s reference frame `role`.
    public static func path(_ name: String, role: String) -> String {
        Fixtures.directory.appendingPathComponent("thumbnails/\(name).\(role).png").path
    }

    /// The lowest PSNR accepted for a fixture, in dB.
    ///
    /// SDR: 35 dB. Measured 46.3-62.6 dB. The low 46-48 dB are the H.264
    /// B-frames (`frameAtMid`) that openh264 decodes differently from ffmpeg
    /// (BitExactDecodeTests accepts 40 dB on their YUV); every bit-exact decode
    /// gives 56.9 dB or more (pasp-anamorphic's 1.6:1 scale is the lowest, where
    /// swscale's area filter and our exact footprints differ slightly).
    ///
    /// HDR (hevc-hlg, hevc-pq): 50 dB. Measured 69.0-74.4 dB: the reference is the
    /// same operator (zscale with agamma=0 and tonemap=hable, see ToneMapper), so the
    /// only differences are single precision and ffmpeg rounding its scaled planes to
    /// 10 bits before the steep PQ/HLG curves. 50 dB keeps room for another zimg build
    /// while catching any change of operator: HLG's OOTF per channel instead of on
    /// luminance (zscale's default) measured 34.7 dB, Reinhard or another peak far less.
    public static func threshold(_ name: String) -> Double {
        name == "hevc-hlg" || name == "hevc-pq" ? 50 : 35
    }
}
