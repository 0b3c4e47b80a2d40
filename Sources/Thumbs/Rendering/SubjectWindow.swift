import Foundation


/// Where `.fill`'s window goes in the upright picture, scaled so that it covers the box (`FillWindow`).
///
/// `.subject` looks for what draws the eye as libvips' `attention` strategy (8.10 and later) does. The picture is
/// averaged down to a 32 x 32 grid (each side on its own); each cell scores its detail (5 times the absolute Laplacian
/// of CIE Y, 0...100, over its four neighbours), its likeness to skin (100 less 100 times the distance of its XYZ
/// direction from skin's (0.78, 0.57, 0.44)) and its redness (CIE a*), the last two only where Y passes 5; the scores
/// are blurred with a Gaussian of a tenth of the window's diagonal in cells (at least 1), and the window is centred on
/// the centre of the cell that scores most (the first of equals, row by row), then kept on the picture. The same
/// picture always gives the same window; a picture where nothing scores, or under 32 pixels on a side, keeps the
/// centre.
enum SubjectWindow {
    /// Cells of the grid along each side.
    static let gridSide = 32

    /// The top-left corner of the `size` window of `image` that `window` keeps (`size` no larger than `image`).
    static func origin(of size: PixelSize, in image: RGBImage, window: FillWindow) -> (x: Int, y: Int) {
        let free = (x: max(0, image.width - size.width), y: max(0, image.height - size.height))
        switch window {
        case .centre:
            return (free.x / 2, free.y / 2)
        case .focus(let x, let y):
            func place(_ fraction: Double, _ side: Int, _ window: Int, _ room: Int) -> Int {
                let fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0.5
                return min(max(Int((fraction * Double(side) - Double(window) / 2).rounded()), 0), room)
            }
            return (place(x, image.width, size.width, free.x), place(y, image.height, size.height, free.y))
        case .subject:
            guard free.x > 0 || free.y > 0, image.isWellFormed else { return (free.x / 2, free.y / 2) }
            return subjectOrigin(of: size, in: image, free: free)
        }
    }

    private static func subjectOrigin(of size: PixelSize, in image: RGBImage, free: (x: Int, y: Int)) -> (x: Int, y: Int) {
        let side = gridSide
        guard image.width >= side, image.height >= side else { return (free.x / 2, free.y / 2) }
        let xyz = cellColours(of: image, side: side)
        func y(_ row: Int, _ column: Int) -> Double { xyz[(min(max(row, 0), side - 1) * side + min(max(column, 0), side - 1)) * 3 + 1] }
        var scores = [Double](repeating: 0, count: side * side)
        for row in 0..<side {
            for column in 0..<side {
                let cell = row * side + column
                let (cx, cy, cz) = (xyz[cell * 3], xyz[cell * 3 + 1], xyz[cell * 3 + 2])
                var score = 5 * abs(4 * cy - y(row - 1, column) - y(row + 1, column) - y(row, column - 1) - y(row, column + 1))
                if cy > 5 {
                    let length = (cx * cx + cy * cy + cz * cz).squareRoot()
                    let (dx, dy, dz) = (cx / length - 0.78, cy / length - 0.57, cz / length - 0.44)
                    score += 100 - 100 * (dx * dx + dy * dy + dz * dz).squareRoot()
                    score += redness(x: cx, y: cy, z: cz)
                }
                scores[cell] = score
            }
        }
        let (cellWidth, cellHeight) = (Double(image.width) / Double(side), Double(image.height) / Double(side))
        let diagonal = ((Double(size.width) / cellWidth) * (Double(size.width) / cellWidth)
                        + (Double(size.height) / cellHeight) * (Double(size.height) / cellHeight)).squareRoot()
        let blurred = gaussianBlur(scores, side: side, sigma: max(diagonal / 10, 1))
        var best = 0
        for cell in blurred.indices where blurred[cell] > blurred[best] { best = cell }
        guard blurred[best] > 1e-9, blurred.contains(where: { $0 != blurred[best] }) else { return (free.x / 2, free.y / 2) }
        let x = Int(((Double(best % side) + 0.5) * cellWidth - Double(size.width) / 2).rounded())
        let y = Int(((Double(best / side) + 0.5) * cellHeight - Double(size.height) / 2).rounded())
        return (min(max(x, 0), free.x), min(max(y, 0), free.y))
    }

    /// CIE XYZ (D65, Y 0...100) of each cell of a `side` x `side` grid over the picture: its pixels' mean sRGB value
    /// (a 16-bit picture by its high bytes), then linearised.
    private static func cellColours(of image: RGBImage, side: Int) -> [Double] {
        let (bytesPerPixel, sample) = (image.pixelFormat.bytesPerPixel, image.pixelFormat.bytesPerSample)
        var xyz = [Double](repeating: 0, count: side * side * 3)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<side {
                let (top, bottom) = (row * image.height / side, (row + 1) * image.height / side)
                for column in 0..<side {
                    let (left, right) = (column * image.width / side, (column + 1) * image.width / side)
                    var (r, g, b) = (0.0, 0.0, 0.0)
                    for y in top..<bottom {
                        var at = y * image.bytesPerRow + left * bytesPerPixel + sample - 1
                        for _ in left..<right {
                            (r, g, b) = (r + Double(pixels[at]), g + Double(pixels[at + sample]), b + Double(pixels[at + 2 * sample]))
                            at += bytesPerPixel
                        }
                    }
                    let count = Double((bottom - top) * (right - left)) * 255
                    let (lr, lg, lb) = (linear(r / count), linear(g / count), linear(b / count))
                    let cell = (row * side + column) * 3
                    xyz[cell] = 100 * (0.4124 * lr + 0.3576 * lg + 0.1805 * lb)
                    xyz[cell + 1] = 100 * (0.2126 * lr + 0.7152 * lg + 0.0722 * lb)
                    xyz[cell + 2] = 100 * (0.0193 * lr + 0.1192 * lg + 0.9505 * lb)
                }
            }
        }
        return xyz
    }

    /// The sRGB transfer undone: a 0...1 value to linear light.
    private static func linear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// CIE a* of an XYZ colour (D65, Y 0...100): how red (positive) or green (negative).
    private static func redness(x: Double, y: Double, z _: Double) -> Double {
        func f(_ t: Double) -> Double { t > 216.0 / 24_389 ? cbrt(t) : (24_389.0 / 27 * t + 16) / 116 }
        return 500 * (f(x / 95.047) - f(y / 100))
    }

    /// `values` (a `side` x `side` grid) blurred by a Gaussian of `sigma` cells, edges extended.
    private static func gaussianBlur(_ values: [Double], side: Int, sigma: Double) -> [Double] {
        // Cut where it falls below a fifth of its peak, as libvips' blur does (its `min_ampl`).
        let radius = min(side, Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.down)))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        func pass(_ input: [Double], across: Bool) -> [Double] {
            var output = [Double](repeating: 0, count: input.count)
            for row in 0..<side {
                for column in 0..<side {
                    var sum = 0.0
                    for (offset, weight) in zip(-radius...radius, weights) {
                        let c = across ? min(max(column + offset, 0), side - 1) : column
                        let r = across ? row : min(max(row + offset, 0), side - 1)
                        sum += weight * input[r * side + c]
                    }
                    output[row * side + column] = sum / total
                }
            }
            return output
        }
        return pass(pass(values, across: true), across: false)
    }
}
