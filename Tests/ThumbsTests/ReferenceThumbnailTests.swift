import ByteSources
import Foundation
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Our thumbnails of every fixture frame against ffmpeg's (Fixtures/make-thumbnail-references.sh).
@Suite struct ReferenceThumbnailTests {
    /// Plans the frame a reference role names, as BitExactDecodeTests does.
    static func plan(_ reference: FrameReferences.Frame, midTime: Double, track: MovieTrack) throws -> FramePlan {
        if reference.role == "nearestKeyframeToMid" {
            return try FramePlanner.plan(track: track, time: track.presentationTime(seconds: midTime), selection: .nearestKeyframe)
        }
        let time = reference.role == "frameAtMid" ? track.presentationTime(seconds: midTime) : reference.pts
        return try FramePlanner.plan(track: track, time: time, selection: .exact)
    }

    @Test(arguments: ThumbnailReferences.fixtures)
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
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ThumbnailReferences.path(name, role: reference.role))))
            let expected = try ImageDecoder().decode(bytes)
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
            #expect(quality >= ThumbnailReferences.threshold(name), "\(name) \(reference.role): psnr \(quality) dB")
        }
        if ProcessInfo.processInfo.environment["THUMBS_PRINT_PSNR"] != nil {
            print("psnr \(name): \(figures.joined(separator: ", "))")
        }
    }
}
