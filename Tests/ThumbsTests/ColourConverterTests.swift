import Foundation
import FrameDecode
import MP4Box
import Testing
import Thumbs

/// Y'CbCr to RGB by matrix, range and bit depth, and the HDR paths.
@Suite struct ColourConverterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var matrix: Int
        var fullRange: Bool
        var bitDepth: Int
        var ycbcr: (Int, Int, Int)
        var rgb: (Int, Int, Int)

        var testDescription: String { name }
    }

    /// Known values: the standards' colour bars and extremes.
    static let cases: [Case] = [
        Case(name: "709 limited white", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (235, 128, 128), rgb: (255, 255, 255)),
        Case(name: "709 limited black", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (16, 128, 128), rgb: (0, 0, 0)),
        Case(name: "709 limited grey", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (126, 128, 128), rgb: (128, 128, 128)),
        Case(name: "709 limited red", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (63, 102, 240), rgb: (255, 0, 0)),
        Case(name: "709 limited green", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (173, 42, 26), rgb: (0, 255, 0)),
        Case(name: "709 limited blue", matrix: 1, fullRange: false, bitDepth: 8, ycbcr: (32, 240, 118), rgb: (0, 0, 255)),
        Case(name: "unspecified below HD is 601", matrix: 2, fullRange: false, bitDepth: 8, ycbcr: (81, 90, 240), rgb: (255, 0, 0)),
        Case(name: "601 limited red", matrix: 6, fullRange: false, bitDepth: 8, ycbcr: (81, 90, 240), rgb: (255, 0, 0)),
        Case(name: "601 (470bg) limited green", matrix: 5, fullRange: false, bitDepth: 8, ycbcr: (145, 54, 34), rgb: (0, 255, 0)),
        Case(name: "601 full red (JFIF)", matrix: 6, fullRange: true, bitDepth: 8, ycbcr: (76, 85, 255), rgb: (255, 0, 0)),
        Case(name: "601 full white", matrix: 6, fullRange: true, bitDepth: 8, ycbcr: (255, 128, 128), rgb: (255, 255, 255)),
        Case(name: "709 full blue", matrix: 1, fullRange: true, bitDepth: 8, ycbcr: (18, 255, 116), rgb: (0, 0, 255)),
        Case(name: "709 limited 10-bit white", matrix: 1, fullRange: false, bitDepth: 10, ycbcr: (940, 512, 512), rgb: (255, 255, 255)),
        Case(name: "709 limited 10-bit black", matrix: 1, fullRange: false, bitDepth: 10, ycbcr: (64, 512, 512), rgb: (0, 0, 0)),
        Case(name: "709 limited 10-bit red", matrix: 1, fullRange: false, bitDepth: 10, ycbcr: (250, 409, 960), rgb: (255, 0, 0)),
        Case(name: "601 full 10-bit red", matrix: 6, fullRange: true, bitDepth: 10, ycbcr: (306, 339, 1023), rgb: (255, 0, 0)),
        Case(name: "2020 limited 10-bit red", matrix: 9, fullRange: false, bitDepth: 10, ycbcr: (294, 387, 960), rgb: (255, 0, 0)),
    ]

    /// The rendered colour of a uniform 4:2:0 frame.
    static func render(_ ycbcr: (Int, Int, Int), matrix: Int, fullRange: Bool, bitDepth: Int, transfer: Int = 1,
                       chromaFormat: DecodedFrame.ChromaFormat = .yuv420, options: RenderOptions = RenderOptions()) throws -> [Int] {
        let colour = ColourDescription(primaries: matrix == 9 ? 9 : 1, transfer: transfer, matrix: matrix, fullRange: fullRange)
        let frame = TestFrames.uniform(width: 4, height: 4, y: ycbcr.0, cb: ycbcr.1, cr: ycbcr.2, bitDepth: bitDepth,
                                       chromaFormat: chromaFormat, colour: colour)
        let image = try Renderer.render(frame, options: options)
        return image.pixel(x: 1, y: 2)
    }

    @Test(arguments: cases)
    func knownColoursConvert(_ test: Case) throws {
        let pixel = try Self.render(test.ycbcr, matrix: test.matrix, fullRange: test.fullRange, bitDepth: test.bitDepth)
        // The standard values are themselves rounded to whole code values: allow 2.
        #expect(abs(pixel[0] - test.rgb.0) <= 2 && abs(pixel[1] - test.rgb.1) <= 2 && abs(pixel[2] - test.rgb.2) <= 2,
                "\(test.name): \(pixel)")
    }

    @Test func unspecifiedMatrixFromHDUpIs709() throws {
        // 709 limited red; a 1280-wide picture that states no matrix is converted as BT.709.
        let frame = TestFrames.uniform(width: 1280, height: 16, y: 63, cb: 102, cr: 240, colour: .unspecified)
        let pixel = try Renderer.render(frame, options: RenderOptions()).pixel(x: 1, y: 2)
        #expect(abs(pixel[0] - 255) <= 2 && pixel[1] <= 2 && pixel[2] <= 2, "\(pixel)")
    }

    /// The textbook formulas in double precision, rounded.
    static func reference(_ y: Double, _ cb: Double, _ cr: Double, kr: Double, kb: Double, fullRange: Bool, bitDepth: Int) -> [Int] {
        let scale = Double(1 << (bitDepth - 8)), maximum = Double((1 << bitDepth) - 1), half = Double(1 << (bitDepth - 1))
        let luma = fullRange ? y / maximum : (y - 16 * scale) / (219 * scale)
        let u = fullRange ? (cb - half) / maximum : (cb - half) / (224 * scale)
        let v = fullRange ? (cr - half) / maximum : (cr - half) / (224 * scale)
        let r = luma + 2 * (1 - kr) * v, b = luma + 2 * (1 - kb) * u
        let g = (luma - kr * r - kb * b) / (1 - kr - kb)
        return [r, g, b].map { Int(min(max($0 * 255, 0), 255).rounded()) }
    }

    @Test(arguments: [(1, 0.2126, 0.0722), (6, 0.299, 0.114), (9, 0.2627, 0.0593)], [false, true])
    func everyCodeValueFollowsTheFormula(_ matrix: (Int, Double, Double), fullRange: Bool) throws {
        for bitDepth in [8, 10] {
            let top = (1 << bitDepth) - 1
            for y in stride(from: 0, through: top, by: top / 7) {
                for cb in stride(from: 0, through: top, by: top / 5) {
                    for cr in stride(from: 0, through: top, by: top / 5) {
                        let pixel = try Self.render((y, cb, cr), matrix: matrix.0, fullRange: fullRange, bitDepth: bitDepth)
                        let expected = Self.reference(Double(y), Double(cb), Double(cr), kr: matrix.1, kb: matrix.2,
                                                      fullRange: fullRange, bitDepth: bitDepth)
                        for channel in 0..<3 {
                            #expect(abs(pixel[channel] - expected[channel]) <= 1,
                                    "matrix \(matrix.0) \(bitDepth)-bit (\(y), \(cb), \(cr)): \(pixel) vs \(expected)")
                        }
                    }
                }
            }
        }
    }

    @Test func matricesGiveDifferentColours() throws {
        let bt601 = try Self.render((81, 90, 240), matrix: 6, fullRange: false, bitDepth: 8)
        let bt709 = try Self.render((81, 90, 240), matrix: 1, fullRange: false, bitDepth: 8)
        #expect(bt601 != bt709)
        #expect(abs(bt601[1] - bt709[1]) > 20)
    }

    @Test func chromaFormatsAndMonochromeConvert() throws {
        for format in [DecodedFrame.ChromaFormat.yuv420, .yuv422, .yuv444] {
            #expect(try Self.render((63, 102, 240), matrix: 1, fullRange: false, bitDepth: 8, chromaFormat: format) == [255, 1, 0])
        }
        let grey = TestFrames.frame(luma: [[16, 126], [235, 255]], colour: TestFrames.bt709Limited)
        let image = try Renderer.render(grey, options: RenderOptions())
        #expect(image.pixels == [0, 0, 0, 128, 128, 128, 255, 255, 255, 255, 255, 255])
    }

    @Test func gbrMatrixReadsThePlanesAsGreenBlueRed() throws {
        // Matrix 0: planes are G, B, R.
        #expect(try Self.render((200, 50, 100), matrix: 0, fullRange: true, bitDepth: 8) == [100, 200, 50])
    }

    // MARK: HDR

    /// PQ signal of a luminance in cd/m² (ST 2084 inverse EOTF).
    static func pqSignal(_ luminance: Double) -> Double {
        let m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
        let power = pow(luminance / 10000, m1)
        return pow((c1 + c2 * power) / (1 + c3 * power), m2)
    }

    static func hable(_ x: Double) -> Double {
        (x * (x * 0.15 + 0.05) + 0.004) / (x * (x * 0.15 + 0.5) + 0.06) - 0.02 / 0.3
    }

    /// The 10-bit limited-range grey code value of a signal 0...1.
    static func code(_ signal: Double) -> Int { Int((64 + 876 * signal).rounded()) }

    @Test func pqGreysToneMapByTheHableCurve() throws {
        for luminance in [0.0, 10, 100, 203, 1000] {
            let signal = Self.pqSignal(luminance)
            let pixel = try Self.render((Self.code(signal), 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: 16)
            // Grey stays grey through BT.2020 -> 709; the curve maps the peak (1000 cd/m² = 10) to 1.
            let linear = (Double(Self.code(signal)) - 64) / 876
            let light = luminance == 0 ? 0 : pow(max(pow(linear, 1 / 78.84375) - 0.8359375, 0)
                / (18.8515625 - 18.6875 * pow(linear, 1 / 78.84375)), 1 / 0.1593017578125) * 100
            let mapped = light == 0 ? 0 : Self.hable(light) / Self.hable(10)
            let expected = Int((pow(min(max(mapped, 0), 1), 1 / 2.4) * 255).rounded())
            #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2], "\(luminance) cd/m²: \(pixel)")
            #expect(abs(pixel[0] - expected) <= 1, "\(luminance) cd/m²: \(pixel[0]) vs \(expected)")
        }
        let peak = try Self.render((940, 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: 16)
        #expect(peak == [255, 255, 255])
    }

    @Test func hlgWhiteIsThePeakAndBlackStaysBlack() throws {
        #expect(try Self.render((940, 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: 18) == [255, 255, 255])
        #expect(try Self.render((64, 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: 18) == [0, 0, 0])
        // Signal 0.5 is scene light 1/12; the OOTF (γ 1.2 at 1000 cd/m²) gives (1/12)^1.2 · 10.
        let half = try Self.render((Self.code(0.5), 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: 18)
        let signal = (Double(Self.code(0.5)) - 64) / 876
        let light = pow(signal * signal / 3, 1.2) * 10
        let expected = Int((pow(Self.hable(light) / Self.hable(10), 1 / 2.4) * 255).rounded())
        #expect(abs(half[0] - expected) <= 1, "\(half) vs \(expected)")
    }

    @Test func toneMappingIsMonotonic() throws {
        for transfer in [16, 18] {
            var previous = -1
            for code in stride(from: 64, through: 940, by: 12) {
                let pixel = try Self.render((code, 512, 512), matrix: 9, fullRange: false, bitDepth: 10, transfer: transfer)
                #expect(pixel[0] >= previous, "transfer \(transfer), code \(code)")
                previous = pixel[0]
            }
        }
    }

    @Test func keepingHDRGivesSixteenBitSignalValues() throws {
        var options = RenderOptions()
        options.keepsHDR = true
        let frame = TestFrames.uniform(width: 4, height: 2, y: 940, cb: 512, cr: 512, bitDepth: 10,
                                       colour: ColourDescription(primaries: 9, transfer: 16, matrix: 9, fullRange: false))
        let image = try Renderer.render(frame, options: options)
        #expect(image.pixelFormat == .rgb16)
        #expect(image.pixel(x: 0, y: 0) == [65535, 65535, 65535])
        // Mid grey keeps its PQ signal value, not its light.
        let grey = TestFrames.uniform(width: 2, height: 2, y: 502, cb: 512, cr: 512, bitDepth: 10, colour: frame.colour)
        let value = try Renderer.render(grey, options: options).pixel(x: 1, y: 1)[0]
        #expect(abs(value - Int((438.0 / 876 * 65535).rounded())) <= 1)
        // An SDR frame is not affected.
        let sdr = TestFrames.uniform(width: 2, height: 2, y: 235, cb: 128, cr: 128)
        #expect(try Renderer.render(sdr, options: options).pixelFormat == .rgb8)
    }
}
