#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// HDR (PQ or HLG) R'G'B' to SDR BT.709 R'G'B', on linear light: the operator the renderer uses by default.
///
/// 1. To display light, 1.0 = `referenceWhite` cd/m² (negative signals clip to 0):
///    PQ by the SMPTE ST 2084 EOTF (0...10000 cd/m²); HLG by its inverse OETF
///    and the BT.2100 OOTF for a display whose peak is `peakLuminance`
///    (Y_s^(γ-1) on BT.2020 luminance, γ = 1.2 + 0.42·log10(peak/1000): 1.2 at 1000 cd/m²).
/// 2. BT.2020 to BT.709 primaries, a 3x3 matrix on linear light (skipped when
///    the stream's primaries are not BT.2020).
/// 3. Hable's filmic curve on the largest of R, G, B, normalised so that
///    `peakLuminance` maps to 1, the three channels scaled by the same factor
///    (hue kept, no desaturation): f(x) / f(peak / referenceWhite), with
///    f(x) = (x(Ax + CB) + DE) / (x(Ax + B) + DF) - E/F, A 0.15, B 0.5,
///    C 0.1, D 0.2, E 0.02, F 0.3.
/// 4. Gamut clip: each channel to 0...1.
/// 5. To signal by the inverse of the BT.1886 EOTF (gamma 2.4), as a BT.709 display expects.
///
/// This is ffmpeg's `zscale=t=linear:npl=100, zscale=p=709,
/// tonemap=hable:desat=0:peak=10, zscale=t=709` at the default parameters,
/// which is how `Fixtures/make-thumbnail-references.sh` makes the references.
struct ToneMapper {
    /// The transfer functions handled: SMPTE ST 2084 and ARIB STD-B67.
    enum Transfer {
        case pq
        case hlg
    }

    let transfer: Transfer
    let convertsPrimaries: Bool
    /// Linear light per unit of the normalised transfer output (10000 / white for PQ, peak / white for HLG).
    let linearScale: Float
    /// γ - 1 of the HLG OOTF.
    let systemGammaMinusOne: Float
    /// The curve's white point: the peak in units of reference white.
    let peak: Float
    /// 1 / f(peak).
    let curveNormaliser: Float

    /// The mapper for `transfer` code point 16 (PQ) or 18 (HLG), or nil for any other.
    init?(transferCharacteristics: Int, primaries: Int, parameters: ToneMapping) {
        switch transferCharacteristics {
        case 16: transfer = .pq
        case 18: transfer = .hlg
        default: return nil
        }
        convertsPrimaries = primaries == 9
        let white = Float(parameters.referenceWhite)
        let peakLuminance = Float(parameters.peakLuminance)
        linearScale = transfer == .pq ? 10000 / white : peakLuminance / white
        systemGammaMinusOne = 0.2 + 0.42 * log10f(peakLuminance / 1000)
        peak = peakLuminance / white
        curveNormaliser = 1 / Self.hable(peak)
    }

    /// Whether `transferCharacteristics` is an HDR transfer this mapper handles.
    static func isHDR(transferCharacteristics: Int) -> Bool {
        transferCharacteristics == 16 || transferCharacteristics == 18
    }

    /// SDR BT.709 R'G'B' (0...1) of one HDR R'G'B' triple.
    @inline(__always)
    func map(_ red: Float, _ green: Float, _ blue: Float) -> (red: Float, green: Float, blue: Float) {
        var (r, g, b) = toLinear(red, green, blue)
        if convertsPrimaries {
            (r, g, b) = (1.6604910 * r - 0.5876411 * g - 0.0728499 * b,
                         -0.1245505 * r + 1.1328999 * g - 0.0083494 * b,
                         -0.0181508 * r - 0.1005789 * g + 1.1187297 * b)
        }
        let signal = max(r, g, b, 1e-6)
        let factor = Self.hable(signal) * curveNormaliser / signal
        return (Self.encode(r * factor), Self.encode(g * factor), Self.encode(b * factor))
    }

    /// Display light (1.0 = reference white) of one R'G'B' triple.
    @inline(__always)
    func toLinear(_ red: Float, _ green: Float, _ blue: Float) -> (Float, Float, Float) {
        switch transfer {
        case .pq:
            return (Self.pqEOTF(red) * linearScale, Self.pqEOTF(green) * linearScale, Self.pqEOTF(blue) * linearScale)
        case .hlg:
            let r = Self.hlgInverseOETF(red), g = Self.hlgInverseOETF(green), b = Self.hlgInverseOETF(blue)
            let luminance = max(0.2627 * r + 0.6780 * g + 0.0593 * b, Float.leastNormalMagnitude)
            let ootf = powf(luminance, systemGammaMinusOne) * linearScale
            return (r * ootf, g * ootf, b * ootf)
        }
    }

    /// SMPTE ST 2084 EOTF, normalised: 1.0 = 10000 cd/m².
    @inline(__always)
    static func pqEOTF(_ signal: Float) -> Float {
        guard signal > 0 else { return 0 }
        let power = powf(signal, 1 / 78.84375)
        let numerator = max(power - 0.8359375, 0)
        let denominator = max(18.8515625 - 18.6875 * power, .leastNormalMagnitude)
        return powf(numerator / denominator, 1 / 0.1593017578125)
    }

    /// ARIB STD-B67 (HLG) inverse OETF: scene light 0...1.
    @inline(__always)
    static func hlgInverseOETF(_ signal: Float) -> Float {
        let signal = max(signal, 0)
        if signal <= 0.5 { return signal * signal / 3 }
        return (expf((signal - 0.55991073) / 0.17883277) + 0.28466892) / 12
    }

    /// Hable's filmic curve (Uncharted 2).
    @inline(__always)
    static func hable(_ x: Float) -> Float {
        let a: Float = 0.15, b: Float = 0.50, c: Float = 0.10, d: Float = 0.20, e: Float = 0.02, f: Float = 0.30
        return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    /// Linear 0...1 to BT.709 signal by the inverse BT.1886 EOTF, with the gamut clip.
    @inline(__always)
    static func encode(_ linear: Float) -> Float {
        powf(min(max(linear, 0), 1), 1 / 2.4)
    }
}
