import FrameDecode
import MP4Box
import Testing
import Thumbs

/// Mirror and rotation: a tiny frame with a distinct colour in each corner, in each of the eight orientations.
@Suite struct ImageGeometryTests {
    enum Corner: CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }

    /// Full-range BT.601 Y'CbCr of an RGB colour (independent of the renderer's code).
    static func ycbcr(_ r: Double, _ g: Double, _ b: Double) -> (Int, Int, Int) {
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        return (Int(y.rounded()), Int((128 + (b - y) / 1.772).rounded()), Int((128 + (r - y) / 1.402).rounded()))
    }

    static let colours: [Corner: (Int, Int, Int)] = [
        .topLeft: (230, 30, 30), .topRight: (30, 230, 30), .bottomLeft: (30, 30, 230), .bottomRight: (230, 230, 230),
    ]
    static let fullRange601 = ColourDescription(primaries: 6, transfer: 6, matrix: 6, fullRange: true)

    /// A 3x2 4:4:4 frame: its corners coloured as `colours`, the middle column grey.
    static func cornerFrame() -> DecodedFrame {
        var luma = Array(repeating: Array(repeating: 128, count: 3), count: 2)
        var cb = luma, cr = luma
        for (corner, (x, y)) in [(Corner.topLeft, (0, 0)), (.topRight, (2, 0)), (.bottomLeft, (0, 1)), (.bottomRight, (2, 1))] {
            let (r, g, b) = colours[corner]!
            (luma[y][x], cb[y][x], cr[y][x]) = ycbcr(Double(r), Double(g), Double(b))
        }
        return TestFrames.frame(luma: luma, cb: cb, cr: cr, chromaFormat: .yuv444, colour: fullRange601)
    }

    /// Where each source corner is shown: output corners top-left, top-right, bottom-left, bottom-right.
    static let expectations: [(Orientation, [Corner])] = [
        (Orientation(rotation: 0, mirrored: false), [.topLeft, .topRight, .bottomLeft, .bottomRight]),
        (Orientation(rotation: 90, mirrored: false), [.bottomLeft, .topLeft, .bottomRight, .topRight]),
        (Orientation(rotation: 180, mirrored: false), [.bottomRight, .bottomLeft, .topRight, .topLeft]),
        (Orientation(rotation: 270, mirrored: false), [.topRight, .bottomRight, .topLeft, .bottomLeft]),
        (Orientation(rotation: 0, mirrored: true), [.topRight, .topLeft, .bottomRight, .bottomLeft]),
        (Orientation(rotation: 90, mirrored: true), [.bottomRight, .topRight, .bottomLeft, .topLeft]),
        (Orientation(rotation: 180, mirrored: true), [.bottomLeft, .bottomRight, .topLeft, .topRight]),
        (Orientation(rotation: 270, mirrored: true), [.topLeft, .bottomLeft, .topRight, .bottomRight]),
    ]

    @Test func everyOrientationPutsTheCornersWhereTheyBelong() throws {
        #expect(Self.expectations.count == Orientation.all.count)
        for (orientation, shown) in Self.expectations {
            let image = try Renderer.render(Self.cornerFrame(), options: RenderOptions(orientation: orientation))
            let size = orientation.swapsDimensions ? (2, 3) : (3, 2)
            #expect(image.width == size.0 && image.height == size.1, "\(orientation)")
            let positions = [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)]
            for (position, corner) in zip(positions, shown) {
                let (r, g, b) = Self.colours[corner]!
                let pixel = image.pixel(x: position.0, y: position.1)
                #expect(abs(pixel[0] - r) <= 2 && abs(pixel[1] - g) <= 2 && abs(pixel[2] - b) <= 2,
                        "\(orientation): \(corner) expected at \(position), found \(pixel)")
            }
        }
    }

    @Test func orientationIsIgnoredWhenNotApplied() throws {
        var options = RenderOptions(orientation: Orientation(rotation: 90, mirrored: true))
        options.appliesOrientation = false
        let turned = try Renderer.render(Self.cornerFrame(), options: options)
        let upright = try Renderer.render(Self.cornerFrame(), options: RenderOptions())
        #expect(turned == upright)
    }

    @Test func orientedMovesEveryPixelByTheTrackMatrix() {
        // Each pixel's value is its index; the matrix (a, b, c, d) maps (x, y) to (a·x + c·y + tx, b·x + d·y + ty).
        let width = 4, height = 3
        for format in [RGBImage.PixelFormat.rgb8, .rgb16, .rgba8] {
            let pixelBytes = format.bytesPerPixel
            var pixels = [UInt8](repeating: 0, count: width * height * pixelBytes)
            for index in 0..<(width * height) { pixels[index * pixelBytes] = UInt8(index) }
            let image = RGBImage(width: width, height: height, pixelFormat: format, pixels: pixels)
            for orientation in Orientation.all {
                let turned = image.oriented(by: orientation)
                let (a, b, c, d) = orientation.linear
                let xs = [0, width - 1].flatMap { x in [0, height - 1].map { y in a * x + c * y } }
                let ys = [0, width - 1].flatMap { x in [0, height - 1].map { y in b * x + d * y } }
                for y in 0..<height {
                    for x in 0..<width {
                        let tx = a * x + c * y - xs.min()!, ty = b * x + d * y - ys.min()!
                        #expect(turned.pixel(x: tx, y: ty)[0] == y * width + x, "\(format) \(orientation) (\(x), \(y))")
                    }
                }
            }
        }
    }
}
