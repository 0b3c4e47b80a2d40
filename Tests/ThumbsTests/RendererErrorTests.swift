import FrameDecode
import MP4Box
import Testing
import Thumbs

/// Frames and options the renderer refuses, with the error codes it gives.
@Suite struct RendererErrorTests {
    static func code(_ error: any Error) -> ThumbnailError.Code? { (error as? ThumbnailError)?.code }

    @Test func planesShorterThanTheirRowsAreAnInvalidFrame() {
        var frame = TestFrames.uniform(width: 8, height: 8, y: 100, cb: 128, cr: 128)
        frame.planes[2].data.removeLast(4)
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
    }

    @Test func missingPlanesAreAnInvalidFrame() {
        var frame = TestFrames.uniform(width: 8, height: 8, y: 100, cb: 128, cr: 128)
        frame.planes.removeLast()
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
    }

    @Test func impossibleBitDepthsAndSizesAreAnInvalidFrame() {
        var frame = TestFrames.uniform(width: 8, height: 8, y: 100, cb: 128, cr: 128)
        frame.bitDepth = 0
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
        frame.bitDepth = 17
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
        frame.bitDepth = 8
        frame.planes[0].width = 0
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
        frame.planes[0].width = 8
        frame.planes[0].bytesPerRow = Int.max / 2
        #expect { try Renderer.render(frame, options: RenderOptions()) } throws: { Self.code($0) == .invalidFrame }
    }

    @Test func negativeBoxesAndCropsOutsideThePictureAreInvalidOptions() {
        let frame = TestFrames.uniform(width: 8, height: 8, y: 100, cb: 128, cr: 128)
        #expect { try Renderer.render(frame, options: RenderOptions(maximumSize: PixelSize(width: -1, height: 10))) } throws: {
            Self.code($0) == .invalidOption
        }
        for crop in [CropRectangle(x: 9, y: 0, width: 4, height: 4), CropRectangle(x: 0, y: 0, width: 0, height: 8),
                     CropRectangle(x: .nan, y: 0, width: 4, height: 4), CropRectangle(x: -10, y: -10, width: 5, height: 5)] {
            #expect { try Renderer.render(frame, options: RenderOptions(crop: crop)) } throws: { Self.code($0) == .invalidOption }
        }
        // A crop reaching past an edge keeps the part inside.
        let partly = RenderOptions(crop: CropRectangle(x: 4, y: 4, width: 100, height: 100))
        #expect((try? Renderer.render(frame, options: partly))?.width == 4)
    }

    @Test func anOutputAboveTheLimitIsAnInvalidOption() {
        // A hostile pasp (2^31 : 1) with no box would ask for a picture billions of pixels wide.
        let frame = TestFrames.uniform(width: 8, height: 8, y: 100, cb: 128, cr: 128)
        let options = RenderOptions(pixelAspectRatio: PixelAspectRatio(horizontal: 1 << 31, vertical: 1))
        #expect { try Renderer.render(frame, options: options) } throws: { Self.code($0) == .invalidOption }
        var boxed = options
        boxed.maximumSize = PixelSize(width: 160, height: 160)
        #expect((try? Renderer.render(frame, options: boxed))?.width == 160)
    }
}
