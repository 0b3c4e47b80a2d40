import ByteSources
import FrameDecode
import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs

/// Interlaced H.264 (MBAFF, x264 with `-flags +ildct+ilme`) from a movie and from an HLS stream cut from it by ffmpeg
/// (Fixtures/streams/ffmpeg-hls-ts-h264-mbaff): a build with the `FFmpegDecoders` trait gives ffmpeg's frame of the
/// movie, deinterlaced (at least 30 dB against ffmpeg's frame as it decodes it, fields woven); a default build refuses
/// both, and a camcorder's 1080i field pictures in TS (Fixtures/streams/filetype-mts-interlaced, as the segment of a
/// playlist and as the bare file; their pictures with the trait `StreamThumbnailTests` checks), with one error that
/// names the codec, the interlacing and the trait.
@Suite struct InterlacedStreamTests {
    static let manifest = Fixtures.directory.appendingPathComponent("streams/ffmpeg-hls-ts-h264-mbaff/index.m3u8").path
    static let movie = MediaCorpus.codecs.path("h264-mbaff.mp4")
    static let camcorder = Fixtures.directory.appendingPathComponent("streams/filetype-mts-interlaced/index.m3u8").path
    /// The camcorder's clip itself, a bare transport stream file.
    static let camcorderFile = Fixtures.directory.appendingPathComponent("streams/filetype-mts-interlaced/raw.mts").path

    static func thumbnail(of path: String, at seconds: Double) async throws -> Thumbnail {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        return try await Media.withMedia(of: FileInput(path: path)) { media in
            try await ThumbnailGenerator(media: media, options: options).image(at: .seconds(seconds))
        }
    }

    #if FFmpegDecoders
    @Test(arguments: [movie, manifest])
    func givesFFmpegsFrameDeinterlaced(_ path: String) async throws {
        let video = try #require(try MediaCorpus.codecs.expectation("h264-mbaff.mp4").video)
        for role in try #require(video.roles) {
            let made = try await Self.thumbnail(of: path, at: role.requestSeconds)
            #expect(abs(made.actualTime - role.ptsSeconds) < 0.0005, "\(role.role): \(made.actualTime) s, ffmpeg \(role.ptsSeconds) s")
            let reference = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath:
                MediaCorpus.codecs.referencePath("h264-mbaff.mp4", role: role.role)))))
            try #require(made.image.width == reference.width && made.image.height == reference.height)
            let quality = psnr(made.image.colourPixels, reference.packed().pixels)
            #expect(quality >= 30, "\(role.role): psnr \(quality) dB")
        }
    }
    #else
    @Test(arguments: [movie, manifest, camcorder, camcorderFile])
    func isRefusedNamingTheTrait(_ path: String) async throws {
        let error = try await #require(throws: DecodeError.self) { _ = try await Self.thumbnail(of: path, at: 0) }
        #expect(error.code == .unsupportedFeature)
        #expect(error.detail.contains("interlaced") && error.detail.contains("FFmpegDecoders"), "\(error)")
    }
    #endif
}
