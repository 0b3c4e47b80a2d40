import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// `.fill`'s window: on frames made here (a textured subject at a known place on a flat background) the subject's
/// window holds the subject where the centre's does not; a focus point centres the window, kept on the picture.
@Suite struct SubjectWindowTests {
    /// A `width` x `height` frame, flat grey, with a square of random grey-level noise of `side` centred at (`x`, `y`).
    static func frame(width: Int, height: Int, subjectAt x: Int, _ y: Int, side: Int) -> (RGBImage, ClosedRange<Int>, ClosedRange<Int>) {
        var generator = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 118, count: width * height * 3)
        let columns = (x - side / 2)...(x + side / 2 - 1), rows = (y - side / 2)...(y + side / 2 - 1)
        for row in rows {
            for column in columns {
                let value = UInt8.random(in: 0...255, using: &generator)
                for channel in 0..<3 { pixels[(row * width + column) * 3 + channel] = value }
            }
        }
        return (RGBImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels), columns, rows)
    }

    /// The share of the subject's area inside the `size` window at `origin`.
    static func share(of subject: (ClosedRange<Int>, ClosedRange<Int>), in origin: (x: Int, y: Int), size: PixelSize) -> Double {
        let across = max(0, min(subject.0.upperBound + 1, origin.x + size.width) - max(subject.0.lowerBound, origin.x))
        let down = max(0, min(subject.1.upperBound + 1, origin.y + size.height) - max(subject.1.lowerBound, origin.y))
        return Double(across * down) / Double(subject.0.count * subject.1.count)
    }

    /// A square tile of a 16:9 frame with its subject in the left or right third, and of a portrait frame with its
    /// subject in the top or bottom third.
    @Test(arguments: [(640, 360, 107, 180), (640, 360, 533, 180), (360, 640, 180, 107), (360, 640, 180, 533)])
    func theSubjectsWindowHoldsTheSubject(width: Int, height: Int, x: Int, y: Int) {
        let (image, columns, rows) = Self.frame(width: width, height: height, subjectAt: x, y, side: 140)
        let size = PixelSize(width: 360, height: 360)
        let subject = Self.share(of: (columns, rows), in: SubjectWindow.origin(of: size, in: image, window: .subject), size: size)
        let centre = Self.share(of: (columns, rows), in: SubjectWindow.origin(of: size, in: image, window: .centre), size: size)
        #expect(subject >= 0.9, "subject \(subject), centre \(centre)")
        #expect(centre < subject && centre < 0.9, "subject \(subject), centre \(centre)")
    }

    /// A flat picture has no subject: the centre.
    @Test func aFlatPictureKeepsTheCentre() {
        let image = RGBImage(width: 640, height: 360, pixelFormat: .rgb8, pixels: [UInt8](repeating: 90, count: 640 * 360 * 3))
        #expect(SubjectWindow.origin(of: PixelSize(width: 360, height: 360), in: image, window: .subject) == (140, 0))
    }

    /// A focus point is the window's centre, as far as the picture allows.
    @Test func theFocusIsTheWindowsCentreOnThePicture() {
        let image = RGBImage(black: 640, height: 360, pixelFormat: .rgb8)
        let size = PixelSize(width: 360, height: 360)
        #expect(SubjectWindow.origin(of: size, in: image, window: .focus(x: 0.5, y: 0.5)) == (140, 0))
        #expect(SubjectWindow.origin(of: size, in: image, window: .focus(x: 0.4, y: 0.9)) == (76, 0))
        #expect(SubjectWindow.origin(of: size, in: image, window: .focus(x: 0.1, y: 0.5)) == (0, 0))
        #expect(SubjectWindow.origin(of: size, in: image, window: .focus(x: 1, y: 0)) == (280, 0))
        let portrait = RGBImage(black: 360, height: 640, pixelFormat: .rgb8)
        #expect(SubjectWindow.origin(of: size, in: portrait, window: .focus(x: 0.9, y: 0.6)) == (0, 204))
    }

    /// Through the renderer: a `.fill` tile with a focus is the window of the whole picture rendered at the size that
    /// covers the tile, where the focus puts it (here the left edge of h264-faststart's 4:3 picture in a square).
    @Test func aFocusedFillIsThatWindowOfTheWholePicture() async throws {
        var options = ThumbnailOptions()
        options.format = nil
        options.maximumSize = PixelSize(width: 120, height: 120)
        options.fitMode = .fill
        options.fillWindow = .focus(x: 0, y: 0.5)
        let tile = try await ThumbnailGenerator(path: Fixtures.path("h264-faststart"), options: options).image(at: .seconds(1)).image
        options.fitMode = .fit
        options.fillWindow = .centre
        options.maximumSize = PixelSize(width: 160, height: 120)
        let whole = try await ThumbnailGenerator(path: Fixtures.path("h264-faststart"), options: options).image(at: .seconds(1)).image
        #expect(tile.width == 120 && tile.height == 120)
        #expect(tile.packed().pixels == whole.cropped(x: 0, y: 0, size: PixelSize(width: 120, height: 120)).pixels)
        options.fitMode = .fill
        options.maximumSize = PixelSize(width: 120, height: 120)
        let centre = try await ThumbnailGenerator(path: Fixtures.path("h264-faststart"), options: options).image(at: .seconds(1)).image
        #expect(centre.packed().pixels == whole.cropped(x: 20, y: 0, size: PixelSize(width: 120, height: 120)).pixels)
    }
}
