import Foundation

/// How good a picture is as a movie's poster: five measures of its luma and colour, the reasons it may not be one
/// (near-black, blown out, flat), and one value that ranks pictures of the same movie.
///
/// The measures are taken on the picture rendered to fit 320 x 320 (`analysisSize`): a fixed size, so that a
/// thumbnail's own size does not change which picture wins, and the variance of the Laplacian means the same across
/// candidates. Luma is Rec. 709's weighting of the rendered R'G'B' (0-255).
///
/// - exposure: `1 - |mean - 0.45| / 0.45`, clamped to 0...1 (mean luma on 0...1; a mid-grey picture scores 1,
///   black and near-white 0);
/// - contrast: the standard deviation of luma on 0...1, over 0.25, at most 1;
/// - sharpness: the variance of the Laplacian `[0 1 0; 1 -4 1; 0 1 0]` of luma (0-255), as
///   `log(1 + v) / log(1001)`, at most 1;
/// - colourfulness: Hasler and Süsstrunk's M (2003), `sqrt(σrg² + σyb²) + 0.3 sqrt(μrg² + μyb²)` with
///   `rg = R - G`, `yb = (R + G) / 2 - B` on 0-255, over 100, at most 1;
/// - entropy: the Shannon entropy of the 256-bin luma histogram, over 8 bits.
///
/// `value` is `0.2 exposure + 0.2 contrast + 0.25 sharpness + 0.15 colourfulness + 0.2 entropy`. A picture is
/// refused (`rejection`) when it is near-black (mean luma under 16/255, or 98 % of its pixels under 32/255, the
/// share ffmpeg's `blackframe` counts, on full-range luma), blown out (mean over 240/255) or flat (deviation under 10/255, or under 3 bits
/// of entropy): a refused picture wins only when every candidate is refused. A fade loses to the picture it fades
/// from on contrast, sharpness and colourfulness (and on exposure too, unless that picture is brighter than mid-grey);
/// a blurred picture keeps its exposure and colour but loses sharpness.
public struct FrameScore: Sendable, Hashable {
    /// Why a picture cannot be a poster while another can.
    public enum Rejection: String, Sendable, Hashable, CustomStringConvertible {
        /// Mean luma under 16/255, or 98 % of the pixels under 32/255.
        case nearBlack
        /// Mean luma over 240/255.
        case blownOut
        /// Luma deviation under 10/255, or entropy under 3 bits: one colour, a title card's ground.
        case flat

        public var description: String { rawValue }
    }

    /// The box pictures are scored at (fitted, aspect ratio kept, never scaled up).
    public static let analysisSize = PixelSize(width: 320, height: 320)

    /// Mean luma, 0...1.
    public var meanLuma: Double
    /// Standard deviation of luma, 0...1.
    public var lumaDeviation: Double
    /// Share of the pixels whose luma is under 32/255.
    public var darkShare: Double
    /// Variance of the Laplacian of luma (on 0-255).
    public var laplacianVariance: Double
    /// Hasler and Süsstrunk's colourfulness M (on 0-255).
    public var colourfulness: Double
    /// Entropy of the luma histogram, 0...8 bits.
    public var entropy: Double

    /// Makes a score from its measures (what `init(image:)` takes from a picture).
    public init(meanLuma: Double, lumaDeviation: Double, darkShare: Double, laplacianVariance: Double,
                colourfulness: Double, entropy: Double) {
        self.meanLuma = meanLuma
        self.lumaDeviation = lumaDeviation
        self.darkShare = darkShare
        self.laplacianVariance = laplacianVariance
        self.colourfulness = colourfulness
        self.entropy = entropy
    }

    /// Why the picture is refused, or nil.
    public var rejection: Rejection? {
        if meanLuma < 16.0 / 255 || darkShare >= 0.98 { return .nearBlack }
        if meanLuma > 240.0 / 255 { return .blownOut }
        if lumaDeviation < 10.0 / 255 || entropy < 3 { return .flat }
        return nil
    }

    /// The exposure term, 0...1.
    public var exposureTerm: Double { clamped(1 - abs(meanLuma - 0.45) / 0.45) }
    /// The contrast term, 0...1.
    public var contrastTerm: Double { clamped(lumaDeviation / 0.25) }
    /// The sharpness term, 0...1.
    public var sharpnessTerm: Double { clamped(log(1 + max(0, laplacianVariance)) / log(1001)) }
    /// The colourfulness term, 0...1.
    public var colourfulnessTerm: Double { clamped(colourfulness / 100) }
    /// The entropy term, 0...1.
    public var entropyTerm: Double { clamped(entropy / 8) }

    /// The weighted sum of the terms, 0...1: higher is better.
    public var value: Double {
        0.2 * exposureTerm + 0.2 * contrastTerm + 0.25 * sharpnessTerm + 0.15 * colourfulnessTerm + 0.2 * entropyTerm
    }

    /// Whether this picture makes a better poster than `other`: one not refused beats one refused, then the higher
    /// `value` wins. Equal ones are left to the caller (the earlier picture wins).
    public func isBetter(than other: FrameScore) -> Bool {
        if (rejection == nil) != (other.rejection == nil) { return rejection == nil }
        return value > other.value
    }

    private func clamped(_ term: Double) -> Double { min(1, max(0, term.isFinite ? term : 0)) }
}

extension FrameScore {
    /// The measures of `image` (8-bit RGB or RGBA, as rendered; a 16-bit image is read by its high bytes). An empty
    /// image scores as a black one.
    public init(image: RGBImage) {
        let (width, height) = (image.width, image.height)
        let step = image.pixelFormat.bytesPerPixel
        guard width > 0, height > 0, image.isWellFormed else {
            self.init(meanLuma: 0, lumaDeviation: 0, darkShare: 1, laplacianVariance: 0, colourfulness: 0, entropy: 0)
            return
        }
        let sampleBytes = image.pixelFormat.bytesPerSample
        let high = sampleBytes - 1  // rgb16 is little-endian: its high byte is the second
        var luma = [Double](repeating: 0, count: width * height)
        var histogram = [Int](repeating: 0, count: 256)
        var (sum, squares, dark) = (0.0, 0.0, 0)
        var (sumRG, squaresRG, sumYB, squaresYB) = (0.0, 0.0, 0.0, 0.0)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                var offset = y * image.bytesPerRow
                for x in 0..<width {
                    let red = Double(pixels[offset + high])
                    let green = Double(pixels[offset + sampleBytes + high])
                    let blue = Double(pixels[offset + 2 * sampleBytes + high])
                    offset += step
                    let value = 0.2126 * red + 0.7152 * green + 0.0722 * blue
                    luma[y * width + x] = value
                    sum += value
                    squares += value * value
                    histogram[min(255, Int(value.rounded()))] += 1
                    if value < 32 { dark += 1 }
                    let rg = red - green
                    let yb = (red + green) / 2 - blue
                    sumRG += rg
                    squaresRG += rg * rg
                    sumYB += yb
                    squaresYB += yb * yb
                }
            }
        }
        let count = Double(width * height)
        let mean = sum / count
        let variance = max(0, squares / count - mean * mean)
        var entropy = 0.0
        for bin in histogram where bin > 0 {
            let share = Double(bin) / count
            entropy -= share * log2(share)
        }
        let (meanRG, meanYB) = (sumRG / count, sumYB / count)
        let spreadRG = max(0, squaresRG / count - meanRG * meanRG)
        let spreadYB = max(0, squaresYB / count - meanYB * meanYB)
        let colourfulness = (spreadRG + spreadYB).squareRoot() + 0.3 * (meanRG * meanRG + meanYB * meanYB).squareRoot()
        self.init(meanLuma: mean / 255, lumaDeviation: variance.squareRoot() / 255, darkShare: Double(dark) / count,
                  laplacianVariance: Self.laplacianVariance(of: luma, width: width, height: height),
                  colourfulness: colourfulness, entropy: entropy)
    }

    /// The variance of the 4-neighbour Laplacian over the pixels that have four neighbours (0 for a picture
    /// narrower or shorter than 3).
    private static func laplacianVariance(of luma: [Double], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        var (sum, squares) = (0.0, 0.0)
        for y in 1..<(height - 1) {
            let row = y * width
            for x in 1..<(width - 1) {
                let centre = row + x
                let value = luma[centre - width] + luma[centre + width] + luma[centre - 1] + luma[centre + 1] - 4 * luma[centre]
                sum += value
                squares += value * value
            }
        }
        let count = Double((width - 2) * (height - 2))
        let mean = sum / count
        return max(0, squares / count - mean * mean)
    }
}
