import FrameDecode
import MP4Box
import Testing
import Thumbs

/// The sizing rules: fit, fill, pad, stretch, upscaling, zero sides, rounding, rotation and pixel aspect.
@Suite struct ThumbnailLayoutTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var display: PixelSize
        var box: PixelSize
        var mode: RenderOptions.FitMode
        var upscaling: Bool
        var canvas: PixelSize
        var content: PixelSize
        var origin: (x: Int, y: Int) = (0, 0)
        var visible: (width: Double, height: Double) = (1, 1)

        var testDescription: String {
            "\(display) in \(box) \(mode)\(upscaling ? " upscaling" : "") -> \(canvas)"
        }
    }

    static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    static let cases: [Case] = [
        // fit: the limiting side gets exactly its bound, the other is rounded half up.
        Case(display: size(1920, 1080), box: size(320, 320), mode: .fit, upscaling: false, canvas: size(320, 180), content: size(320, 180)),
        Case(display: size(1080, 1920), box: size(320, 320), mode: .fit, upscaling: false, canvas: size(180, 320), content: size(180, 320)),
        Case(display: size(1920, 1080), box: size(100, 100), mode: .fit, upscaling: false, canvas: size(100, 56), content: size(100, 56)),
        Case(display: size(1280, 720), box: size(427, 240), mode: .fit, upscaling: false, canvas: size(427, 240), content: size(427, 240)),
        Case(display: size(641, 360), box: size(320, 180), mode: .fit, upscaling: false, canvas: size(320, 180), content: size(320, 180)),
        Case(display: size(341, 144), box: size(160, 160), mode: .fit, upscaling: false, canvas: size(160, 68), content: size(160, 68)),
        // never 0: a sliver keeps one row or column.
        Case(display: size(1000, 3), box: size(100, 100), mode: .fit, upscaling: false, canvas: size(100, 1), content: size(100, 1)),
        Case(display: size(3, 1000), box: size(100, 100), mode: .fit, upscaling: false, canvas: size(1, 100), content: size(1, 100)),
        // no upscaling unless asked.
        Case(display: size(180, 320), box: size(320, 320), mode: .fit, upscaling: false, canvas: size(180, 320), content: size(180, 320)),
        Case(display: size(180, 320), box: size(640, 640), mode: .fit, upscaling: false, canvas: size(180, 320), content: size(180, 320)),
        Case(display: size(180, 320), box: size(640, 640), mode: .fit, upscaling: true, canvas: size(360, 640), content: size(360, 640)),
        // zero sides are unconstrained.
        Case(display: size(1920, 1080), box: size(0, 0), mode: .fit, upscaling: false, canvas: size(1920, 1080), content: size(1920, 1080)),
        Case(display: size(1920, 1080), box: size(320, 0), mode: .fit, upscaling: false, canvas: size(320, 180), content: size(320, 180)),
        Case(display: size(1920, 1080), box: size(0, 90), mode: .fit, upscaling: false, canvas: size(160, 90), content: size(160, 90)),
        Case(display: size(1920, 1080), box: size(320, 0), mode: .fill, upscaling: false, canvas: size(320, 180), content: size(320, 180)),
        Case(display: size(1920, 1080), box: size(0, 90), mode: .pad, upscaling: false, canvas: size(160, 90), content: size(160, 90)),
        Case(display: size(1920, 1080), box: size(0, 0), mode: .stretch, upscaling: false, canvas: size(1920, 1080), content: size(1920, 1080)),
        // fill: exactly the box, the centre of the picture.
        Case(display: size(1920, 1080), box: size(320, 320), mode: .fill, upscaling: false, canvas: size(320, 320), content: size(320, 320),
             visible: (0.5625, 1)),
        Case(display: size(180, 320), box: size(320, 320), mode: .fill, upscaling: true, canvas: size(320, 320), content: size(320, 320),
             visible: (1, 0.5625)),
        // fill without upscaling: the box's shape at 1:1, as large as the picture holds.
        Case(display: size(180, 320), box: size(320, 320), mode: .fill, upscaling: false, canvas: size(180, 180), content: size(180, 180),
             visible: (1, 0.5625)),
        // pad: fitted, centred on exactly the box.
        Case(display: size(1920, 1080), box: size(320, 320), mode: .pad, upscaling: false, canvas: size(320, 320), content: size(320, 180),
             origin: (0, 70)),
        Case(display: size(180, 320), box: size(320, 320), mode: .pad, upscaling: false, canvas: size(320, 320), content: size(180, 320),
             origin: (70, 0)),
        Case(display: size(100, 50), box: size(320, 320), mode: .pad, upscaling: false, canvas: size(320, 320), content: size(100, 50),
             origin: (110, 135)),
        // stretch: exactly the box; without upscaling each side at most the picture's.
        Case(display: size(1920, 1080), box: size(320, 320), mode: .stretch, upscaling: false, canvas: size(320, 320), content: size(320, 320)),
        Case(display: size(180, 320), box: size(320, 320), mode: .stretch, upscaling: false, canvas: size(180, 320), content: size(180, 320)),
        Case(display: size(180, 320), box: size(320, 320), mode: .stretch, upscaling: true, canvas: size(320, 320), content: size(320, 320)),
    ]

    @Test(arguments: cases)
    func layoutFollowsTheSizingRules(_ test: Case) {
        let layout = ThumbnailLayout(display: test.display, box: test.box, fitMode: test.mode, allowsUpscaling: test.upscaling)
        #expect(layout.canvas == test.canvas)
        #expect(layout.content == test.content)
        #expect(layout.contentOrigin == test.origin)
        #expect(abs(layout.visibleFraction.width - test.visible.width) < 1e-9)
        #expect(abs(layout.visibleFraction.height - test.visible.height) < 1e-9)
    }

    @Test func fitNeverRoundsToZeroOrPastTheBox() {
        for width in stride(from: 1, through: 2000, by: 37) {
            for height in stride(from: 1, through: 2000, by: 41) {
                let layout = ThumbnailLayout(display: Self.size(width, height), box: Self.size(160, 90), fitMode: .fit,
                                             allowsUpscaling: true)
                #expect(layout.canvas.width >= 1 && layout.canvas.height >= 1)
                #expect(layout.canvas.width <= 160 && layout.canvas.height <= 90)
                #expect(layout.canvas.width == 160 || layout.canvas.height == 90, "\(width)x\(height) -> \(layout.canvas)")
            }
        }
    }

    @Test func hugeSidesAreClampedInsteadOfOverflowing() {
        let side = Int.max / 2
        let layout = ThumbnailLayout(display: Self.size(side, 3), box: Self.size(side, side), fitMode: .fill, allowsUpscaling: true)
        #expect(layout.canvas.width <= ThumbnailLayout.maximumSide && layout.canvas.height <= ThumbnailLayout.maximumSide)
    }

    @Test func rotationSwapsTheDisplaySize() throws {
        let frame = TestFrames.uniform(width: 640, height: 360, y: 128, cb: 128, cr: 128)
        for orientation in Orientation.all {
            var options = RenderOptions(maximumSize: Self.size(320, 320), orientation: orientation)
            let layout = try Renderer.layout(of: frame, options: options)
            #expect(layout.canvas == (orientation.swapsDimensions ? Self.size(180, 320) : Self.size(320, 180)), "\(orientation)")
            options.appliesOrientation = false
            #expect(try Renderer.layout(of: frame, options: options).canvas == Self.size(320, 180))
        }
    }

    @Test func pixelAspectRatioScalesTheWidth() throws {
        let frame = TestFrames.uniform(width: 256, height: 144, y: 128, cb: 128, cr: 128)
        let wide = RenderOptions(pixelAspectRatio: PixelAspectRatio(horizontal: 4, vertical: 3))
        #expect(try Renderer.layout(of: frame, options: wide).canvas == Self.size(341, 144))
        // Narrow pixels narrow the picture, as ffmpeg's tkhd and CoreVideo do: 256 x 3/4 = 192.
        let narrow = RenderOptions(pixelAspectRatio: PixelAspectRatio(horizontal: 3, vertical: 4))
        #expect(try Renderer.layout(of: frame, options: narrow).canvas == Self.size(192, 144))
        var fitted = wide
        fitted.maximumSize = Self.size(160, 160)
        #expect(try Renderer.layout(of: frame, options: fitted).canvas == Self.size(160, 68))
        // Applied before the turn: a 90° turn shows the stretched width as height.
        fitted.orientation = Orientation(rotation: 90, mirrored: false)
        #expect(try Renderer.layout(of: frame, options: fitted).canvas == Self.size(68, 160))
        #expect(try Renderer.render(frame, options: fitted).width == 68)
    }

    @Test func cropShrinksTheDisplaySize() throws {
        let frame = TestFrames.uniform(width: 64, height: 48, y: 128, cb: 128, cr: 128)
        let options = RenderOptions(crop: CropRectangle(x: 8, y: 4, width: 40, height: 30))
        #expect(try Renderer.layout(of: frame, options: options).canvas == Self.size(40, 30))
        #expect(try Renderer.render(frame, options: options).width == 40)
    }
}
