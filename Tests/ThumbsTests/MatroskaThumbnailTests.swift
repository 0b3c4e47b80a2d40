import ByteSources
import Foundation
import Matroska
import MP4BoxTestSupport
import Testing
import Thumbs

/// Thumbnails of the Matroska and WebM fixtures (the MP4 fixtures' frames remuxed by ffmpeg and mkvmerge, and VP8)
/// against ffmpeg's pictures of the same frames (Fixtures/matroska/references), through the one media rule, as every
/// job reads them.
@Suite struct MatroskaThumbnailTests {
    /// The thumbnail of `reference`'s file at `time`, exact or at the nearest keyframe, within 160x160.
    static func thumbnail(_ reference: MatroskaReferences.File, at time: ThumbnailTime, exact: Bool) async throws -> Thumbnail {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        return try await Media.withMedia(of: FileInput(path: reference.path)) { media in
            try await ThumbnailGenerator(media: media, options: options).image(at: time)
        }
    }

    @Test(arguments: MatroskaReferences.all)
    func picturesMatchFFmpegs(_ reference: MatroskaReferences.File) async throws {
        for role in reference.roles {
            let made = try await Self.thumbnail(reference, at: .rational(value: role.askedMilliseconds, timescale: 1000),
                                                exact: role.exact)
            let path = MatroskaReferences.referencePath(reference.name, role: role.role)
            let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect([expected.width, expected.height] == reference.referenceSize)
            try #require(made.image.width == expected.width && made.image.height == expected.height,
                         "\(reference.name) \(role.role): \(made.image.width)x\(made.image.height), ffmpeg \(expected.width)x\(expected.height)")
            let quality = psnr(made.image.colourPixels, expected.packed().pixels)
            #expect(quality >= 35, "\(reference.name) \(role.role): psnr \(quality) dB")
            #expect(abs(made.actualTime * 1000 - Double(role.shownMilliseconds)) < 0.5, "\(reference.name) \(role.role): \(made.actualTime) s")
        }
    }

    /// The default time is a tenth of the Duration, its nearest keyframe; `info` and every job read the same index.
    @Test func theDefaultTimeIsATenthOfTheDuration() async throws {
        let reference = try #require(MatroskaReferences.all.first { $0.name == "h264-bframes.cues-back.mkv" })
        let made = try await Media.withMedia(of: FileInput(path: reference.path)) { media in
            try await ThumbnailGenerator(media: media).image()
        }
        // 0.3 s: the keyframes are at 0 and 0.48 s.
        #expect(made.actualTime == 0.48)
        #expect(made.isSyncSample)
    }

    /// A file whose CodecID is renamed to `codecID` (as long as H.264's, which it replaces).
    static func renamed(to codecID: String) throws -> CustomInput {
        let reference = try #require(MatroskaReferences.all.first { $0.name == "h264-bframes.cues-back.mkv" })
        var bytes = try reference.bytes()
        let codec = Array("V_MPEG4/ISO/AVC".utf8)
        let at = try #require((0 ..< bytes.count - codec.count).first { Array(bytes[$0 ..< $0 + codec.count]) == codec })
        bytes.replaceSubrange(at ..< at + codec.count, with: Array(codecID.utf8))
        let renamed = bytes
        return CustomInput(key: "renamed.mkv") { MemoryByteSource(renamed) }
    }

    /// A CodecID no MP4 code stands for is a typed error naming it.
    @Test func anUnknownCodecIsNamed() async throws {
        let input = try Self.renamed(to: "V_UNKNOWN/ABCDE")
        await #expect { try await Media.withMedia(of: input) { try await ThumbnailGenerator(media: $0).image() } } throws: { error in
            guard let error = error as? MatroskaError else { return false }
            return error.code == .unsupported && error.description.contains("V_UNKNOWN/ABCDE")
        }
    }

    #if !FFmpegDecoders
    /// A known codec without a decoder in this build is refused by FrameDecode, which names it and the trait.
    @Test func aCodecWithoutADecoderIsNamed() async throws {
        let input = try Self.renamed(to: "V_MPEG4/ISO/ASP")
        await #expect { try await Media.withMedia(of: input) { try await ThumbnailGenerator(media: $0).image() } } throws: { error in
            guard let error = error as? DecodeError else { return false }
            return error.code == .unsupportedCodec && error.description.contains("MPEG-4 Part 2 Visual")
                && error.description.contains("FFmpegDecoders")
        }
    }
    #endif

    /// DASH with WebM (Fixtures/matroska/dash: ffmpeg's `-dash 1` cut of vp9-8bit.cues-back.webm, its Cues after the
    /// Clusters or before them, a SegmentBase manifest): every role's picture is ffmpeg's of that frame in the WebM.
    @Test(arguments: ["vp9-cues-back", "vp9-cues-front"])
    func dashWithWebMGivesTheFramesPictures(_ layout: String) async throws {
        let reference = try #require(MatroskaReferences.all.first { $0.name == "vp9-8bit.cues-back.webm" })
        let manifest = MatroskaReferences.folder.appendingPathComponent("dash/\(layout)/manifest.mpd").path
        for role in reference.roles {
            var options = ThumbnailOptions()
            options.maximumSize = PixelSize(width: 160, height: 160)
            if role.exact {
                options.requestedTimeToleranceBefore = .zero
                options.requestedTimeToleranceAfter = .zero
            }
            let made = try await Media.withMedia(of: FileInput(path: manifest)) { media in
                guard case .stream = media else { throw CancellationError() }
                return try await ThumbnailGenerator(media: media, options: options)
                    .image(at: .rational(value: role.askedMilliseconds, timescale: 1000))
            }
            let path = MatroskaReferences.referencePath(reference.name, role: role.role)
            let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            try #require(made.image.width == expected.width && made.image.height == expected.height)
            let quality = psnr(made.image.colourPixels, expected.packed().pixels)
            #expect(quality >= 35, "\(layout) \(role.role): psnr \(quality) dB")
            #expect(abs(made.actualTime * 1000 - Double(role.shownMilliseconds)) < 0.5, "\(layout) \(role.role): \(made.actualTime) s")
        }
    }

    /// `info` of a DASH manifest of WebM names its segments Matroska cue spans, one per keyframe's Cluster.
    @Test func dashWithWebMIsSummarisedAsCueSpans() async throws {
        let manifest = MatroskaReferences.folder.appendingPathComponent("dash/vp9-cues-back/manifest.mpd").path
        let reference = try #require(MatroskaReferences.all.first { $0.name == "vp9-8bit.cues-back.webm" })
        let summary = try await StreamSummary.read(StreamSession(input: FileInput(path: manifest)))
        let rendition = try #require(summary.periods.first?.renditions.first)
        #expect(rendition.segmentFormat == "matroska")
        #expect(rendition.segmentCount == reference.keyframeTimes.count)
        #expect(rendition.end == reference.duration)
    }

    /// Transparent WebM (Fixtures/matroska/alpha: VP8 and VP9 with their alpha planes in BlockAdditions, as ffmpeg
    /// writes them): the keyframe and a frame after it keep their alpha in PNG and WebP, each channel libvpx's picture
    /// (ffmpeg with `-c:v libvpx`/`libvpx-vp9`: its colour through the references' chain, its alpha plane); JPEG,
    /// which cannot hold it, is opaque.
    @Test(arguments: ["vp8", "vp9"])
    func transparentWebMKeepsItsAlpha(_ codec: String) async throws {
        let folder = MatroskaReferences.folder.appendingPathComponent("alpha")
        let input = FileInput(path: folder.appendingPathComponent("\(codec).webm").path)
        for (frame, format) in [(0, ImageFormat.png), (25, .webp(quality: 100, lossless: true))] {
            var options = ThumbnailOptions()
            options.maximumSize = PixelSize(width: 160, height: 160)
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
            options.format = format
            let made = try await Media.withMedia(of: input) { media in
                try await ThumbnailGenerator(media: media, options: options).image(at: .rational(value: Int64(frame) * 40, timescale: 1000))
            }
            let image = try ImageDecoder().decode(made.encoded)
            try #require(image.pixelFormat == .rgba8 && image.width == 160 && image.height == 120, "\(codec) \(frame): \(image.pixelFormat)")
            let pixels = image.packed().pixels
            let colour = try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("\(codec).\(frame).colour.png"))))
            let alpha = try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("\(codec).\(frame).alpha.png"))))
            let madeAlpha = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
            let expectedAlpha = stride(from: 0, to: alpha.packed().pixels.count, by: alpha.pixelFormat.channelCount).map { alpha.packed().pixels[$0] }
            // The colour where it shows: WebP, as libwebp may, changes what is under fully transparent pixels.
            let shown = expectedAlpha.indices.filter { expectedAlpha[$0] >= 8 }
            let rgb = shown.flatMap { pixels[4 * $0 ..< 4 * $0 + 3] }
            let expectedRGB = shown.flatMap { colour.packed().pixels[3 * $0 ..< 3 * $0 + 3] }
            #expect(shown.count > pixels.count / 8 && psnr(rgb, expectedRGB) >= 35, "\(codec) \(frame): colour psnr \(psnr(rgb, expectedRGB)) dB")
            #expect(psnr(madeAlpha, expectedAlpha) >= 35, "\(codec) \(frame): alpha psnr \(psnr(madeAlpha, expectedAlpha)) dB")
            // The ramp's transparent and opaque ends are both in the picture.
            #expect(madeAlpha.min() ?? 255 < 16 && madeAlpha.max() ?? 0 > 240)
        }
        var jpeg = ThumbnailOptions()
        jpeg.format = .jpeg(quality: 90)
        let opaque = try await Media.withMedia(of: input) { try await ThumbnailGenerator(media: $0, options: jpeg).image(at: .seconds(1)) }
        #expect(opaque.image.pixelFormat == .rgb8)
    }
}
