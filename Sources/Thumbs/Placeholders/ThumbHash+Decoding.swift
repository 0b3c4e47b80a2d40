import Foundation

extension ThumbHash {
    /// The placeholder picture the hash stands for: 32 pixels along its longer side, straight RGBA, the same pixels
    /// as the reference decoder's (`thumbHashToRGBA`). Colour terms are boosted by 1.25 against their quantisation,
    /// as the reference does. Show it scaled up (smoothly) in the picture's place while the picture loads.
    public func image() -> RGBImage {
        let layout = Layout(bytes)
        var next = layout.termStart * 2  // the nibble the next term is in
        func read(columns: Int, rows: Int, scale: Double) -> [Double] {
            ThumbHash.terms(columns: columns, rows: rows).map { _ in
                let nibble = Int(bytes[next / 2]) >> (next % 2 * 4) & 15
                next += 1
                return (Double(nibble) / 7.5 - 1) * scale
            }
        }
        let luminanceColumns = layout.luminanceColumns
        let luminanceRows = layout.luminanceRows
        let luminanceTerms = ThumbHash.terms(columns: luminanceColumns, rows: luminanceRows)
        let luminance = read(columns: luminanceColumns, rows: luminanceRows, scale: layout.luminanceScale)
        let colourTerms = ThumbHash.terms(columns: 3, rows: 3)
        let yellowBlue = read(columns: 3, rows: 3, scale: layout.yellowBlueScale * 1.25)
        let redGreen = read(columns: 3, rows: 3, scale: layout.redGreenScale * 1.25)
        let alphaTerms = ThumbHash.terms(columns: 5, rows: 5)
        let alpha = layout.hasAlpha ? read(columns: 5, rows: 5, scale: layout.alphaScale) : []

        let ratio = approximateAspectRatio
        let width = Int((ratio > 1 ? 32 : 32 * ratio).rounded())
        let height = Int((ratio > 1 ? 32 / ratio : 32).rounded())
        let factorCount = max(luminanceColumns, luminanceRows, layout.hasAlpha ? 5 : 3)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var across = [Double](repeating: 0, count: factorCount)
        var down = [Double](repeating: 0, count: factorCount)
        for y in 0..<height {
            for x in 0..<width {
                for term in 0..<factorCount {
                    across[term] = cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(term))
                    down[term] = cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(term))
                }
                var l = layout.luminanceDC
                for (index, term) in luminanceTerms.enumerated() {
                    l += luminance[index] * across[term.x] * (down[term.y] * 2)
                }
                var p = layout.yellowBlueDC
                var q = layout.redGreenDC
                for (index, term) in colourTerms.enumerated() {
                    let factor = across[term.x] * (down[term.y] * 2)
                    p += yellowBlue[index] * factor
                    q += redGreen[index] * factor
                }
                var a = layout.alphaDC
                for (index, term) in alphaTerms.enumerated() where layout.hasAlpha {
                    a += alpha[index] * across[term.x] * (down[term.y] * 2)
                }
                let (red, green, blue) = Self.rgb(luminance: l, yellowBlue: p, redGreen: q)
                let pixel = (y * width + x) * 4
                for (offset, value) in [red, green, blue, a].enumerated() {
                    pixels[pixel + offset] = UInt8(max(0, 255 * min(1, value)))  // truncated, as a Uint8Array stores it
                }
            }
        }
        return RGBImage(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
    }
}
