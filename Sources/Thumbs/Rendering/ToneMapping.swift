/// Parameters of the HDR-to-SDR operator (see `ToneMapper`).
///
/// Linear light is scaled so that 1.0 is `referenceWhite` cd/m²; signals up to
/// `peakLuminance` are compressed by the Hable curve into SDR, brighter ones clip.
public struct ToneMapping: Sendable, Equatable {
    /// The luminance shown as linear 1.0 (SDR peak white), in cd/m². Default 100, as ffmpeg's `zscale=npl=100`.
    public var referenceWhite: Double
    /// The brightest luminance kept, in cd/m². Default 1000: the nominal HLG display, and the usual PQ
    /// mastering peak when the stream carries no mastering metadata.
    public var peakLuminance: Double

    /// Makes parameters; a non-positive or non-finite value takes the default.
    public init(referenceWhite: Double = 100, peakLuminance: Double = 1000) {
        self.referenceWhite = referenceWhite.isFinite && referenceWhite > 0 ? referenceWhite : 100
        self.peakLuminance = peakLuminance.isFinite && peakLuminance > 0 ? peakLuminance : 1000
    }
}
