import FrameDecode
import MP4Box
import Testing
import Thumbs

/// Downscaling averages the exact source footprint of each output pixel.
@Suite struct AreaScalerTests {
    static let fullRange = ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: true)

    /// A monochrome full-range frame: luma equals R = G = B.
    static func grey(_ rows: [[Int]]) -> DecodedFrame {
        TestFrames.frame(luma: rows, colour: fullRange)
    }

    static func greys(_ image: RGBImage) -> [Int] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.pixel(x: x, y: y)[0] } }
    }

    static func checkerboard(width: Int, height: Int, cell: Int = 1) -> [[Int]] {
        (0..<height).map { y in (0..<width).map { x in (x / cell + y / cell).isMultiple(of: 2) ? 0 : 255 } }
    }

    @Test func checkerboardAveragesToGrey() throws {
        let image = try Renderer.render(Self.grey(Self.checkerboard(width: 64, height: 48)),
                                        options: RenderOptions(maximumSize: PixelSize(width: 16, height: 16)))
        #expect(image.width == 16 && image.height == 12)
        #expect(Self.greys(image).allSatisfy { $0 == 128 }, "\(Self.greys(image))")
    }

    @Test func checkerboardAtAFractionalRatioDoesNotAlias() throws {
        // 64 -> 27 columns: footprints of 2.37 samples. Point sampling would give 0s and 255s.
        let image = try Renderer.render(Self.grey(Self.checkerboard(width: 64, height: 64)),
                                        options: RenderOptions(maximumSize: PixelSize(width: 27, height: 27)))
        #expect(image.width == 27)
        for value in Self.greys(image) {
            #expect(abs(value - 128) <= 16, "\(value)")
        }
        // A coarse checkerboard (8-sample cells) at 4:1 stays exactly a pattern: no blur inside a footprint.
        let coarse = try Renderer.render(Self.grey(Self.checkerboard(width: 64, height: 64, cell: 8)),
                                         options: RenderOptions(maximumSize: PixelSize(width: 16, height: 16)))
        #expect(Set(Self.greys(coarse)) == [0, 255])
    }

    @Test func fractionalEdgesAreWeightedByTheAreaCovered() throws {
        // 3 samples to 2: footprints [0, 1.5) and [1.5, 3).
        let options = RenderOptions(maximumSize: PixelSize(width: 2, height: 1), fitMode: .stretch)
        let image = try Renderer.render(Self.grey([[0, 90, 180]]), options: options)
        #expect(Self.greys(image) == [30, 150])
        // Vertically as well: rows 0, 90, 180 to 2 rows.
        let tall = try Renderer.render(Self.grey([[0], [90], [180]]),
                                       options: RenderOptions(maximumSize: PixelSize(width: 1, height: 2), fitMode: .stretch))
        #expect(Self.greys(tall) == [30, 150])
    }

    @Test func aUniformPictureStaysUniformAtAnySize() throws {
        let rows = Array(repeating: Array(repeating: 77, count: 37), count: 23)
        for (width, height) in [(5, 3), (36, 22), (1, 1), (37, 1), (11, 23)] {
            let image = try Renderer.render(Self.grey(rows),
                                            options: RenderOptions(maximumSize: PixelSize(width: width, height: height), fitMode: .stretch))
            #expect(image.width == width && image.height == height)
            #expect(Self.greys(image).allSatisfy { $0 == 77 })
        }
    }

    @Test func meanBrightnessIsKept() throws {
        // Any downscale of a ramp keeps its mean (to rounding).
        let rows = (0..<30).map { y in (0..<50).map { x in (x * 5 + y * 3) % 256 } }
        let mean = Double(rows.joined().reduce(0, +)) / 1500
        for size in [PixelSize(width: 10, height: 6), PixelSize(width: 17, height: 13), PixelSize(width: 7, height: 29)] {
            let image = try Renderer.render(Self.grey(rows), options: RenderOptions(maximumSize: size, fitMode: .stretch))
            let values = Self.greys(image)
            let scaledMean = Double(values.reduce(0, +)) / Double(values.count)
            #expect(abs(scaledMean - mean) < 0.6, "\(size): \(scaledMean) vs \(mean)")
        }
    }

    @Test func chromaIsAveragedWithItsOwnFootprint() throws {
        // 4:2:0, 8x2: left half red, right half blue, in chroma too. Down to 2x1 keeps the halves apart.
        let red = (63, 102, 240), blue = (32, 240, 118)
        let luma = [[Int]](repeating: [red.0, red.0, red.0, red.0, blue.0, blue.0, blue.0, blue.0], count: 2)
        let frame = TestFrames.frame(luma: luma, cb: [[red.1, red.1, blue.1, blue.1]], cr: [[red.2, red.2, blue.2, blue.2]])
        let image = try Renderer.render(frame, options: RenderOptions(maximumSize: PixelSize(width: 2, height: 1), fitMode: .stretch))
        #expect(image.pixel(x: 0, y: 0) == [255, 1, 0])
        #expect(image.pixel(x: 1, y: 0)[2] >= 254 && image.pixel(x: 1, y: 0)[0] <= 1)
    }

    @Test func fillShowsTheCentreAndPadAddsBlackBars() throws {
        // 6x2: columns 0-1 dark, 2-3 mid, 4-5 light.
        let rows = [[Int]](repeating: [20, 20, 120, 120, 220, 220], count: 2)
        let filled = try Renderer.render(Self.grey(rows), options: RenderOptions(maximumSize: PixelSize(width: 2, height: 2), fitMode: .fill))
        #expect(Self.greys(filled) == [120, 120, 120, 120])
        let padded = try Renderer.render(Self.grey(rows), options: RenderOptions(maximumSize: PixelSize(width: 6, height: 4), fitMode: .pad))
        #expect(padded.width == 6 && padded.height == 4)
        #expect(Self.greys(padded) == [0, 0, 0, 0, 0, 0] + [20, 20, 120, 120, 220, 220] + [20, 20, 120, 120, 220, 220] + [0, 0, 0, 0, 0, 0])
    }

    @Test func cropSelectsThePartShown() throws {
        let rows = [[Int]](repeating: [20, 20, 120, 120, 220, 220], count: 2)
        let options = RenderOptions(crop: CropRectangle(x: 4, y: 0, width: 2, height: 2))
        #expect(Self.greys(try Renderer.render(Self.grey(rows), options: options)) == [220, 220, 220, 220])
    }

    @Test func upscalingInterpolatesLinearly() throws {
        // 2 -> 4: output centres at source positions -0.25, 0.25, 0.75, 1.25 (edges held).
        var options = RenderOptions(maximumSize: PixelSize(width: 4, height: 2), allowsUpscaling: true)
        let image = try Renderer.render(Self.grey([[10, 200]]), options: options)
        #expect(Self.greys(image) == [10, 58, 153, 200, 10, 58, 153, 200])
        options.allowsUpscaling = false
        #expect(Self.greys(try Renderer.render(Self.grey([[10, 200]]), options: options)) == [10, 200])
    }
}
