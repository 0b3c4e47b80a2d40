import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// AVIF output (libavif), read back by libavif's own `avifdec` (and by ffmpeg where it is installed): lossy beside
/// lossy WebP, lossless, and HDR kept as 10-bit with the movie's colours; the 16-bit PNG's cICP chunk.
@Suite(.enabled(if: ExternalTool("/usr/bin/avifdec").isInstalled, "needs avifdec (libavif-bin)"))
struct AVIFOutputTests {
    static let avifdec = ExternalTool("/usr/bin/avifdec")
    static let ffmpeg = ExternalTool("/usr/bin/ffmpeg")

    /// Real recordings (other projects' test files, Fixtures/real-world/SOURCES.md), not drawn test patterns.
    static let recordings = [
        "media3-bbb_800x640_768kbps_30fps_avc_pyramid_3b.mp4", "media3-mv_with_2_top_shots.mp4",
        "media3-hdr10-video-with-sdr-container.mp4", "media3-sample_android_slow_motion.mp4",
        "media3-sample_rotate_and_reflect.mp4", "media3-bt601.mov", "media3-sample_gamma2.2.mp4", "media3-sample_av1.mp4",
        "media3-sample_edit_list_no_sync_frame_before_edit.mp4",
    ]

    static func picture(of path: String, keepsHDR: Bool = false) async throws -> RGBImage {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 320, height: 320)
        options.format = nil
        options.keepsHDR = keepsHDR
        return try await ThumbnailGenerator(path: path, options: options).image().image
    }

    /// `file` decoded by avifdec into a PNG of `depth` bits, read back.
    static func avifdecPicture(of file: [UInt8], depth: Int = 8) throws -> RGBImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.avif"), output = folder.appendingPathComponent("out.png")
        try Data(file).write(to: input)
        let run = try avifdec.run(["--depth", "\(depth)", input.path, output.path])
        try #require(run.status == 0, "\(run.output)")
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: output)))
    }

    /// avifdec's `--info` of `file`.
    static func avifdecInfo(of file: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("info-\(UUID().uuidString).avif")
        try Data(file).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = try avifdec.run(["--info", url.path])
        try #require(run.status == 0, "\(run.output)")
        return run.output
    }

    /// At the default qualities, AVIF beside lossy WebP on real recordings' 320 px pictures, each decoded by its own
    /// format's library (avifdec, libwebp): every AVIF decodes to the picture's size; on all but at most one both are
    /// true, the AVIF is smaller and its PSNR against the picture at most 1 dB under WebP's; together the AVIFs are
    /// smaller and on average at most 1 dB under; none is 2 dB under. (`Benchmarks/README.md`, "AVIF beside WebP",
    /// has each one: the exception is media3-sample_gamma2.2.mp4.)
    @Test func theDefaultAVIFIsSmallerThanWebPAndAsClose() async throws {
        var (avifBytes, webpBytes, differences, both) = (0, 0, [Double](), 0)
        for name in Self.recordings {
            let image = try await Self.picture(of: Fixtures.directory.appendingPathComponent("real-world/media/\(name)").path)
            let avif = try ImageFormat(named: "avif")?.encode(image) ?? []
            let webp = try ImageFormat(named: "webp")?.encode(image) ?? []
            let decodedAVIF = try Self.avifdecPicture(of: avif)
            let decodedWebP = try ImageDecoder().decode(webp)
            try #require(decodedAVIF.width == image.width && decodedAVIF.height == image.height, "\(name)")
            let original = image.packed().pixels
            let (avifQuality, webpQuality) = (psnr(decodedAVIF.packed().pixels, original), psnr(decodedWebP.packed().pixels, original))
            let difference = avifQuality - webpQuality
            print("AVIF beside WebP: \(name) AVIF \(avif.count) B \(avifQuality) dB, WebP \(webp.count) B \(webpQuality) dB")
            #expect(difference > -2, "\(name): AVIF \(avif.count) B, WebP \(webp.count) B, \(difference) dB")
            if avif.count < webp.count, difference >= -1 { both += 1 }
            (avifBytes, webpBytes) = (avifBytes + avif.count, webpBytes + webp.count)
            differences.append(difference)
        }
        #expect(both >= Self.recordings.count - 1, "\(differences)")
        #expect(avifBytes < webpBytes, "AVIF \(avifBytes) B, WebP \(webpBytes) B")
        #expect(differences.reduce(0, +) / Double(differences.count) >= -1, "\(differences)")
    }

    /// Lossless AVIF (4:4:4, identity matrix, quantizer 0) decodes to the picture's own pixels.
    @Test(arguments: ["h264-faststart", "hevc-8bit", "rotate-90"])
    func losslessAVIFKeepsEveryPixel(_ name: String) async throws {
        let image = try await Self.picture(of: Fixtures.path(name))
        let avif = try ImageFormat.avif(quality: 0, lossless: true).encode(image)
        let decoded = try Self.avifdecPicture(of: avif)
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.packed().pixels == image.packed().pixels)
    }

    /// An 8-bit AVIF is tagged as the other formats' files are taken: BT.709 primaries, sRGB transfer.
    @Test func anSDRAVIFIsEightBitSRGB() async throws {
        let info = try Self.avifdecInfo(of: try ImageFormat.avif(quality: ImageFormat.defaultAVIFQuality, lossless: false)
            .encode(try await Self.picture(of: Fixtures.path("h264-faststart"))))
        for line in ["Bit Depth      : 8", "Format         : YUV420", "Color Primaries: 1", "Transfer Char. : 13"] {
            #expect(info.contains(line), "\(info)")
        }
    }

    /// `keepsHDR` AVIF of the PQ and HLG fixtures: 10-bit 4:4:4 with the movie's primaries, transfer and matrix (as
    /// ffprobe names them: bt2020, smpte2084 or arib-std-b67, bt2020nc), whose 16-bit decode is within 1 dB of what
    /// lossy WebP keeps of the same fixture's SDR picture.
    @Test(arguments: [("hevc-pq", 16), ("hevc-hlg", 18)])
    func anHDRAVIFKeepsTheMoviesColours(_ name: String, _ transfer: Int) async throws {
        let hdr = try await Self.picture(of: Fixtures.path(name), keepsHDR: true)
        try #require(hdr.pixelFormat == .rgb16)
        let avif = try ImageFormat(named: "avif")?.encode(hdr) ?? []
        let info = try Self.avifdecInfo(of: avif)
        for line in ["Bit Depth      : 10", "Format         : YUV444", "Color Primaries: 9", "Transfer Char. : \(transfer)",
                     "Matrix Coeffs. : 9", "Range          : Full"] {
            #expect(info.contains(line), "\(info)")
        }
        let decoded = try Self.avifdecPicture(of: avif, depth: 16)
        try #require(decoded.pixelFormat == .rgb16 && decoded.width == hdr.width && decoded.height == hdr.height)
        let sdr = try await Self.picture(of: Fixtures.path(name))
        let webp = try ImageDecoder().decode(try ImageFormat(named: "webp")?.encode(sdr) ?? [])
        let hdrQuality = psnr16(decoded.packed().pixels, hdr.packed().pixels)
        let webpQuality = psnr(webp.packed().pixels, sdr.packed().pixels)
        #expect(hdrQuality >= webpQuality - 1, "AVIF 16-bit \(hdrQuality) dB, WebP \(webpQuality) dB")
    }

    /// The `keepsHDR` PNG says its primaries and transfer in a cICP chunk right after IHDR (matrix 0, full range),
    /// and no longer claims to be linear (no gAMA); ffmpeg, checking every chunk's CRC, reads it where installed.
    @Test(arguments: [("hevc-pq", UInt8(16)), ("hevc-hlg", UInt8(18))])
    func anHDRPNGSaysItsColoursInCICP(_ name: String, _ transfer: UInt8) async throws {
        let png = try ImageFormat.png.encode(try await Self.picture(of: Fixtures.path(name), keepsHDR: true))
        let ihdrLength = Int(png[8]) << 24 | Int(png[9]) << 16 | Int(png[10]) << 8 | Int(png[11])
        let cicp = 8 + 12 + ihdrLength
        #expect(String(decoding: png[cicp + 4..<cicp + 8], as: UTF8.self) == "cICP")
        #expect(Array(png[cicp..<cicp + 4]) == [0, 0, 0, 4])
        #expect(Array(png[cicp + 8..<cicp + 12]) == [9, transfer, 0, 1])
        #expect(!png.indices.dropLast(4).contains { String(decoding: png[$0..<$0 + 4], as: UTF8.self) == "gAMA" })
        #expect(try ImageDecoder().decode(png).pixelFormat == .rgb16)
        if Self.ffmpeg.isInstalled {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("cicp-\(UUID().uuidString).png")
            try Data(png).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let run = try Self.ffmpeg.run(["-v", "error", "-err_detect", "crccheck", "-i", url.path, "-f", "null", "-"])
            #expect(run.status == 0 && run.output.isEmpty, "\(run.output)")
        }
    }

    /// Where ffmpeg is installed, it reads the AVIF files too (its mov demuxer and libdav1d).
    @Test(.enabled(if: ExternalTool("/usr/bin/ffmpeg").isInstalled)) func ffmpegReadsTheAVIFFiles() async throws {
        let image = try await Self.picture(of: Fixtures.path("h264-faststart"))
        let hdr = try await Self.picture(of: Fixtures.path("hevc-pq"), keepsHDR: true)
        for file in [try ImageFormat.avif(quality: ImageFormat.defaultAVIFQuality, lossless: false).encode(image),
                     try ImageFormat.avif(quality: 0, lossless: true).encode(image),
                     try ImageFormat.avif(quality: ImageFormat.defaultAVIFQuality, lossless: false).encode(hdr)] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("ff-\(UUID().uuidString).avif")
            try Data(file).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let run = try Self.ffmpeg.run(["-v", "error", "-i", url.path, "-f", "null", "-"])
            #expect(run.status == 0 && run.output.isEmpty, "\(run.output)")
        }
    }
}

/// Peak signal-to-noise ratio of two 16-bit little-endian images, in dB (infinity when identical).
func psnr16(_ lhs: [UInt8], _ rhs: [UInt8]) -> Double {
    guard lhs.count == rhs.count, lhs.count >= 2 else { return 0 }
    var sum = 0.0
    for index in stride(from: 0, to: lhs.count - 1, by: 2) {
        let a = Int(lhs[index]) | Int(lhs[index + 1]) << 8, b = Int(rhs[index]) | Int(rhs[index + 1]) << 8
        sum += Double((a - b) * (a - b))
    }
    if sum == 0 { return .infinity }
    return 10 * log10(65535.0 * 65535.0 / (sum / Double(lhs.count / 2)))
}
