import MP4BoxTestSupport
import Testing
import Thumbs

/// WebP through libwebp: lossless round trips, lossy quality, refusals, and thumbnails against the PNG path.
@Suite struct WebPCodecTests {
    @Test(arguments: [RGBImage.PixelFormat.rgb8, .rgba8], [0, 5])
    func losslessRoundTripGivesBackTheExactPixels(_ format: RGBImage.PixelFormat, padding: Int) throws {
        let image = ImageCodecTests.noise(format, padding: padding)
        let webp = try ImageFormat.webp(quality: 100, lossless: true).encode(image)
        #expect(Array(webp.prefix(4)) == Array("RIFF".utf8) && Array(webp[8..<12]) == Array("WEBP".utf8))
        let decoded = try ImageDecoder().decode(webp)
        let packed = image.packed()
        #expect(decoded.pixelFormat == format && decoded.width == image.width && decoded.height == image.height)
        // Every visible pixel is kept; libwebp's simple lossless API clears the colour under fully transparent ones.
        let visible = { (pixels: [UInt8]) -> [UInt8] in
            format == .rgb8 ? pixels : stride(from: 0, to: pixels.count, by: 4).flatMap {
                pixels[$0 + 3] == 0 ? [0, 0, 0, 0] : Array(pixels[$0..<$0 + 4])
            }
        }
        #expect(visible(decoded.pixels) == visible(packed.pixels))
    }

    @Test func lossyQualityBuysFidelityWithBytes() throws {
        let image = ImageCodecTests.ramp()
        let low = try ImageFormat.webp(quality: 10, lossless: false).encode(image)
        let high = try ImageFormat.webp(quality: 90, lossless: false).encode(image)
        let lowPSNR = psnr(try ImageDecoder().decode(low).pixels, image.pixels)
        let highPSNR = psnr(try ImageDecoder().decode(high).pixels, image.pixels)
        #expect(low.count < high.count)
        #expect(lowPSNR < highPSNR)
        #expect(highPSNR >= 35, "\(highPSNR) dB at quality 90")
    }

    @Test func lossyKeepsTheAlphaChannel() throws {
        let image = ImageCodecTests.noise(.rgba8)
        let decoded = try ImageDecoder().decode(try ImageFormat.webp(quality: 80, lossless: false).encode(image))
        #expect(decoded.pixelFormat == .rgba8)
        let alpha = { (pixels: [UInt8]) in stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] } }
        #expect(alpha(decoded.pixels) == alpha(image.pixels), "libwebp keeps alpha losslessly at its default alpha quality")
    }

    @Test func sixteenBitImagesAndGarbageAreRefused() throws {
        #expect { try ImageFormat.webp(quality: 80, lossless: false).encode(ImageCodecTests.noise(.rgb16)) } throws: {
            ($0 as? ThumbnailError)?.code == .encodingFailed
        }
        let header = Array("RIFF".utf8) + [40, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect { try ImageDecoder().decode(header + Array("not a picture at all".utf8)) } throws: {
            ($0 as? ThumbnailError)?.code == .invalidImage
        }
        let webp = try ImageFormat.webp(quality: 80, lossless: false).encode(ImageCodecTests.ramp())
        #expect { try ImageDecoder(maximumPixelCount: 100).decode(webp) } throws: { ($0 as? ThumbnailError)?.code == .invalidImage }
        #expect { try ImageDecoder().decode(Array(webp.prefix(webp.count / 2))) } throws: {
            ($0 as? ThumbnailError)?.code == .invalidImage
        }
    }

    @Test func encoderNamesItsFormat() {
        let format = ImageFormat.webp(quality: 80, lossless: false)
        #expect(format.mediaType == "image/webp" && format.fileExtension == "webp")
    }

    /// A thumbnail as WebP against the same thumbnail as PNG: lossless gives the PNG's pixels, lossy at least 30 dB.
    @Test(arguments: ["h264-faststart", "hevc-8bit", "rotate-90"])
    func thumbnailsMatchThePNGPath(_ name: String) async throws {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 320, height: 320)
        options.format = .png
        let png = try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image()
        let reference = try ImageDecoder().decode(png.encoded)
        options.format = .webp(quality: 100, lossless: true)
        let lossless = try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image()
        #expect(try ImageDecoder().decode(lossless.encoded) == reference)
        options.format = .webp(quality: 80, lossless: false)
        let lossy = try ImageDecoder().decode(try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image().encoded)
        #expect(lossy.width == reference.width && lossy.height == reference.height)
        #expect(psnr(lossy.pixels, reference.pixels) >= 30, "\(name): \(psnr(lossy.pixels, reference.pixels)) dB")
    }
}
