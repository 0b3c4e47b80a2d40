import Foundation
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Our thumbnails of every fixture frame against ffmpeg's (Fixtures/make-thumbnail-references.sh).
@Suite struct ReferenceThumbnailTests {
    /// Fixtures with decode references and thumbnails.
    static let fixtures = FrameReferences.names.filter { name in
        FileManager.default.fileExists(atPath: referencePath(name, role: "firstFrame"))
    }

    static func referencePath(_ name: String, role: String) -> String {
        Fixtures.directory.appendingPathComponent("thumbnails/\(name).\(role).png").path
    }

    /// The lowest PSNR accepted for a fixture, in dB.
    ///
    /// SDR: 35 dB. Measured 46.3-62.6 dB. The low 46-48 dB are the H.264
    /// B-frames (`frameAtMid`) that openh264 decodes differently from ffmpeg
    /// (BitExactDecodeTests accepts 40 dB on their YUV); every bit-exact decode
    /// gives 56.9 dB or more (pasp-anamorphic's 1.6:1 scale is the lowest, where
    /// swscale's area filter and our exact footprints differ slightly).
    ///
    /// HDR (hevc-hlg, hevc-pq): 50 dB. Measured 69.0-74.4 dB: the reference is the
    /// same operator (zscale with agamma=0 and tonemap=hable, see ToneMapper), so the
    /// only differences are single precision and ffmpeg rounding its scaled planes to
    /// 10 bits before the steep PQ/HLG curves. 50 dB keeps room for another zimg build
    /// while catching any change of operator: HLG's OOTF per channel instead of on
    /// luminance (zscale's default) measured 34.7 dB, Reinhard or another peak far less.
    static func threshold(_ name: String) -> Double {
        name == "hevc-hlg" || name == "hevc-pq" ? 50 : 35
    }

    /// Plans the frame a reference role names, as BitExactDecodeTests does.
    static func plan(_ reference: FrameReferences.Frame, midTime: Double, track: Track) throws -> FramePlan {
        if reference.role == "nearestKeyframeToMid" {
            return try FramePlanner.plan(track: track, time: track.presentationTime(seconds: midTime), selection: .nearestKeyframe)
        }
        let time = reference.role == "frameAtMid" ? track.presentationTime(seconds: midTime) : reference.pts
        return try FramePlanner.plan(track: track, time: time, selection: .exact)
    }

    @Test(arguments: fixtures)
    func thumbnailMatchesFFmpeg(_ name: String) async throws {
        let references = try #require(try FrameReferences.load(name))
        let source = try FileByteSource(path: Fixtures.path(name))
        let track = try #require(try await MovieLocator().locate(in: source).movie.primaryVideoTrack)
        var figures: [String] = []
        for reference in references.frames {
            let plan = try Self.plan(reference, midTime: references.midTime, track: track)
            let frame = try await FrameExtractor(source: source, track: track).frame(for: plan)
            let options = RenderOptions(track: track, maximumSize: PixelSize(width: 160, height: 160))
            let image = try Renderer.render(frame, options: options)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.referencePath(name, role: reference.role))))
            let expected = try PNGDecoder().decode(bytes)
            if let directory = ProcessInfo.processInfo.environment["THUMBS_DUMP_DIR"] {
                // Our rendering beside ffmpeg's, to look at or diff when a figure drops.
                let url = URL(fileURLWithPath: directory).appendingPathComponent("\(name).\(reference.role).png")
                try Data(try PNGEncoder().encode(image)).write(to: url)
            }
            #expect(image.width == expected.width && image.height == expected.height,
                    "\(name) \(reference.role): \(image.width)x\(image.height), ffmpeg \(expected.width)x\(expected.height)")
            #expect(image.pixelFormat == .rgb8 && expected.pixelFormat == .rgb8)
            guard image.width == expected.width, image.height == expected.height else { continue }
            let quality = psnr(image.packed().pixels, expected.packed().pixels)
            figures.append("\(reference.role) \(String(format: "%.2f", quality))")
            #expect(quality >= Self.threshold(name), "\(name) \(reference.role): psnr \(quality) dB")
        }
        if ProcessInfo.processInfo.environment["THUMBS_PRINT_PSNR"] != nil {
            print("psnr \(name): \(figures.joined(separator: ", "))")
        }
    }
}
