import MP4BoxTestSupport
import Testing
import Thumbs

/// PNG and JPEG through libpng and libjpeg-turbo.
@Suite struct ImageCodecTests {
    /// A deterministic pseudo-random generator (xorshift), so failures reproduce.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// A `width` x `height` image of noise, with `padding` unused bytes after each row.
    static func noise(_ format: RGBImage.PixelFormat, width: Int = 37, height: Int = 23, padding: Int = 0) -> RGBImage {
        var generator = Noise()
        let rowBytes = width * format.bytesPerPixel + padding
        let pixels = (0..<rowBytes * height).map { _ in generator.next() }
        return RGBImage(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: format, pixels: pixels)
    }

    /// A smooth colour ramp, the kind of picture JPEG is for.
    static func ramp(width: Int = 160, height: Int = 90) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) * 255 / (width + height - 2))]
            }
        }
        return RGBImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test(arguments: [RGBImage.PixelFormat.rgb8, .rgba8, .rgb16], [0, 5])
    func pngRoundTripGivesBackTheExactPixels(_ format: RGBImage.PixelFormat, padding: Int) throws {
        let image = Self.noise(format, padding: format == .rgb16 ? padding * 2 : padding)
        let png = try PNGEncoder().encode(image)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try ImageDecoder().decode(png)
        #expect(decoded.pixelFormat == format)
        #expect(decoded == image.packed())
    }

    @Test func pngOfALargeIncompressibleImageFits() throws {
        let image = Self.noise(.rgb16, width: 300, height: 200)
        #expect(try ImageDecoder().decode(try PNGEncoder().encode(image)) == image)
    }

    @Test func jpegHasItsMarkersAndDecodesCloseToTheOriginal() throws {
        let image = Self.ramp()
        let jpeg = try JPEGEncoder(quality: 90).encode(image)
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.width == 160 && decoded.height == 90 && decoded.pixelFormat == .rgb8)
        let quality = psnr(decoded.pixels, image.pixels)
        #expect(quality > 35, "psnr \(quality)")
    }

    @Test func jpegQualityTradesSizeForFidelity() throws {
        let image = Self.ramp()
        let small = try JPEGEncoder(quality: 20).encode(image)
        let large = try JPEGEncoder(quality: 95, chromaSubsampling: .yuv444).encode(image)
        #expect(small.count < large.count)
        #expect(psnr(try ImageDecoder().decode(small).pixels, image.pixels)
            < psnr(try ImageDecoder().decode(large).pixels, image.pixels))
    }

    /// An encoded file holds its own bytes, not the encoder's worst-case room (tjBufSize, or a PNG's room for
    /// incompressible rows): a cache counts a thumbnail by its file's size, and a service holds one for each request
    /// waiting for its answer. A 1280x720 ramp is a JPEG of a few KiB in a worst-case buffer of about 2.7 MiB.
    @Test(arguments: [ImageFormat.jpeg(quality: 80), .png])
    func anEncodedFileHoldsNoRoomBeyondItsBytes(_ format: ImageFormat) throws {
        let encoded = try format.encode(Self.ramp(width: 1280, height: 720))
        #expect(encoded.capacity <= encoded.count + 64, "\(encoded.count) bytes in an array of capacity \(encoded.capacity)")
    }

    @Test func jpegIgnoresAlphaAndHonoursRowPadding() throws {
        let opaque = Self.ramp(width: 16, height: 8)
        var rgba: [UInt8] = []
        for index in 0..<(16 * 8) {
            rgba += opaque.pixels[3 * index..<3 * index + 3] + [UInt8(index)] + [0xAA, 0xAA, 0xAA, 0xAA].prefix(index % 16 == 15 ? 4 : 0)
        }
        let padded = RGBImage(width: 16, height: 8, bytesPerRow: 16 * 4 + 4, pixelFormat: .rgba8, pixels: rgba)
        #expect(try JPEGEncoder(quality: 100).encode(padded) == (try JPEGEncoder(quality: 100).encode(opaque)))
    }

    @Test func encodersRefuseWhatTheyCannotHold() {
        #expect(throws: ThumbnailError(.encodingFailed, "jpeg: holds 8-bit samples only, not rgb16")) {
            try JPEGEncoder().encode(Self.noise(.rgb16))
        }
        let short = RGBImage(width: 10, height: 10, pixelFormat: .rgb8, pixels: [UInt8](repeating: 0, count: 299))
        for encoder in [PNGEncoder() as any ImageEncoder, JPEGEncoder()] {
            #expect { try encoder.encode(short) } throws: { ($0 as? ThumbnailError)?.code == .encodingFailed }
            #expect { try encoder.encode(RGBImage(black: 0, height: 4, pixelFormat: .rgb8)) } throws: {
                ($0 as? ThumbnailError)?.code == .encodingFailed
            }
        }
    }

    @Test func decodersRefuseBytesThatAreNotImages() throws {
        let garbage: [UInt8] = Array("not an image at all".utf8)
        #expect { try ImageDecoder().decode(garbage) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        #expect { try ImageDecoder().decode([]) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        // Garbage behind each signature reaches the library it names, which refuses it.
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect { try ImageDecoder().decode(pngSignature + garbage) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        #expect { try ImageDecoder().decode([0xFF, 0xD8, 0xFF] + garbage) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        // A truncated PNG fails in the pixel data, not with a crash.
        let png = try PNGEncoder().encode(Self.noise(.rgb8))
        #expect { try ImageDecoder().decode(Array(png.prefix(png.count / 2))) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
    }

    @Test func decodersRefuseImagesLargerThanTheLimit() throws {
        let png = try PNGEncoder().encode(Self.noise(.rgb8))
        #expect { try ImageDecoder(maximumPixelCount: 100).decode(png) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        let jpeg = try JPEGEncoder().encode(Self.ramp())
        #expect { try ImageDecoder(maximumPixelCount: 100).decode(jpeg) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
    }

    @Test func encodersNameTheirFormat() {
        #expect(PNGEncoder().mediaType == "image/png" && PNGEncoder().fileExtension == "png")
        #expect(JPEGEncoder().mediaType == "image/jpeg" && JPEGEncoder().fileExtension == "jpg")
    }
}
