import MP4Box

/// Y'CbCr code values to non-linear R'G'B' (nominal 0...1) by a stream's matrix and range (Rec. ITU-T H.273).
///
/// Matrix coefficients: 1 (BT.709) and any code point not listed use BT.709
/// (the renderer has already replaced an unspecified matrix by the guess for
/// the picture's size, `ColourDescription.resolvingUnspecifiedMatrix`); 5 and 6 BT.601; 4 FCC; 7 SMPTE 240M; 9 BT.2020 NCL (10,
/// BT.2020 constant luminance, is approximated by it); 0 is GBR (identity).
/// Limited range: Y' = (Y - 16·2^(n-8)) / (219·2^(n-8)), C = (C - 2^(n-1)) / (224·2^(n-8)).
/// Full range: Y' = Y / (2^n - 1), C = (C - 2^(n-1)) / (2^n - 1).
struct YCbCrToRGB {
    /// The luma weights (Kr, Kb) of the matrix, or nil for GBR.
    let weights: (red: Float, blue: Float)?
    let lumaOffset: Float
    let lumaScale: Float
    let chromaOffset: Float
    let chromaScale: Float
    let crToRed: Float
    let cbToGreen: Float
    let crToGreen: Float
    let cbToBlue: Float

    /// The conversion for samples of `bitDepth` bits described by `colour`.
    init(colour: ColourDescription, bitDepth: Int) {
        weights = Self.weights(matrixCoefficients: colour.matrix)
        let depthScale = Float(1 << max(0, bitDepth - 8))
        let maximum = Float((1 << bitDepth) - 1)
        chromaOffset = Float(1 << (bitDepth - 1))
        if colour.fullRange {
            lumaOffset = 0
            lumaScale = 1 / maximum
            chromaScale = 1 / maximum
        } else {
            lumaOffset = 16 * depthScale
            lumaScale = 1 / (219 * depthScale)
            chromaScale = 1 / (224 * depthScale)
        }
        let (kr, kb) = weights ?? (0, 0)
        let kg = 1 - kr - kb
        crToRed = 2 * (1 - kr)
        cbToBlue = 2 * (1 - kb)
        cbToGreen = weights == nil ? 0 : 2 * (1 - kb) * kb / kg
        crToGreen = weights == nil ? 0 : 2 * (1 - kr) * kr / kg
    }

    /// Kr and Kb of a matrix-coefficients code point; nil for 0 (GBR).
    static func weights(matrixCoefficients code: Int) -> (red: Float, blue: Float)? {
        switch code {
        case 0: nil
        case 4: (0.30, 0.11)
        case 5, 6: (0.299, 0.114)
        case 7: (0.212, 0.087)
        case 9, 10: (0.2627, 0.0593)
        default: (0.2126, 0.0722)
        }
    }

    /// Whether the planes are G, B, R (matrix 0) rather than Y', Cb, Cr.
    var isGBR: Bool { weights == nil }

    /// R'G'B' of one sample triple (code values); may fall outside 0...1 where the source does.
    @inline(__always)
    func convert(_ y: Float, _ cb: Float, _ cr: Float) -> (red: Float, green: Float, blue: Float) {
        if weights == nil {
            // GBR: every plane is scaled like luma.
            return ((cr - lumaOffset) * lumaScale, (y - lumaOffset) * lumaScale, (cb - lumaOffset) * lumaScale)
        }
        let luma = (y - lumaOffset) * lumaScale
        let blueDifference = (cb - chromaOffset) * chromaScale
        let redDifference = (cr - chromaOffset) * chromaScale
        return (luma + crToRed * redDifference,
                luma - cbToGreen * blueDifference - crToGreen * redDifference,
                luma + cbToBlue * blueDifference)
    }
}
