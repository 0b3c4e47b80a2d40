import FrameDecode
import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// An interlaced Motion JPEG sample holds a frame's two fields, each a JPEG image: the decoder weaves them, in the
/// order `fiel` gives, into ffmpeg's frame (the oracle: ffmpeg's own picture of the frame, and its field filter's
/// halves of it, encoded to JPEG by ffmpeg).
@Suite(.enabled(if: ExternalTool("/usr/bin/ffmpeg").isInstalled, "needs ffmpeg"))
struct MotionJPEGFieldTests {
    static let ffmpeg = ExternalTool("/usr/bin/ffmpeg")

    /// ffmpeg's grey frame of testsrc2 at 160x120 and its two fields as JPEG images.
    struct Pictures {
        var frame: [UInt8]
        var top: [UInt8]
        var bottom: [UInt8]
        var whole: [UInt8]
    }

    static func pictures() throws -> Pictures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mjpeg-fields-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "1"]
        func ffmpeg(_ arguments: [String], _ output: String) throws -> [UInt8] {
            let path = folder.appendingPathComponent(output).path
            let run = try Self.ffmpeg.run(["-nostdin", "-loglevel", "error", "-y"] + source + arguments + [path])
            try #require(run.status == 0, "\(run.output)")
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return Pictures(frame: try ffmpeg(["-pix_fmt", "gray", "-f", "rawvideo"], "frame.gray"),
                        top: try ffmpeg(["-vf", "field=top", "-c:v", "mjpeg", "-q:v", "1", "-pix_fmt", "yuvj444p"], "top.jpg"),
                        bottom: try ffmpeg(["-vf", "field=bottom", "-c:v", "mjpeg", "-q:v", "1", "-pix_fmt", "yuvj444p"], "bottom.jpg"),
                        whole: try ffmpeg(["-c:v", "mjpeg", "-q:v", "1", "-pix_fmt", "yuvj444p"], "whole.jpg"))
    }

    /// The luma plane of the one frame decoded from `sample`, with the fields in the order `bottomFieldFirst` says.
    static func decodedLuma(_ sample: [UInt8], bottomFieldFirst: Bool) throws -> DecodedFrame.Plane {
        let entry = SyntheticMovie.visualEntry("mjpa", children: [])
        let track = try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: entry).bytes()).tracks.first)
        let decoder = try MotionJPEGDecoder(configuration: try CodecConfiguration(entry: try #require(track.visualEntry)),
                                            colour: nil, bottomFieldFirst: bottomFieldFirst)
        let frames = try decoder.decode(DecoderInput(sample: try track.samples.sample(at: 0), bytes: sample))
        let frame = try #require(frames.first)
        #expect(frames.count == 1)
        #expect(frame.chromaFormat == .yuv444 && frame.colour.fullRange)
        return frame.planes[0]
    }

    @Test func twoFieldsAreWovenInTheirOrder() throws {
        let pictures = try Self.pictures()
        let topFirst = try Self.decodedLuma(pictures.top + pictures.bottom, bottomFieldFirst: false)
        let bottomFirst = try Self.decodedLuma(pictures.bottom + pictures.top, bottomFieldFirst: true)
        for plane in [topFirst, bottomFirst] {
            #expect(plane.width == 160 && plane.height == 120)
            #expect(psnr(plane.data, pictures.frame) >= 40, "psnr \(psnr(plane.data, pictures.frame)) dB")
        }
        // Woven in the wrong order, every row is its neighbour's: far from the frame.
        let swapped = try Self.decodedLuma(pictures.bottom + pictures.top, bottomFieldFirst: false)
        #expect(psnr(swapped.data, pictures.frame) < 30, "psnr \(psnr(swapped.data, pictures.frame)) dB")
    }

    /// Two images of different sizes are not a frame's fields, and a second image libjpeg-turbo refuses is no field:
    /// the first is the picture.
    @Test func imagesOfDifferentSizesAreNotFields() throws {
        let pictures = try Self.pictures()
        let half = try Self.decodedLuma(pictures.top + pictures.whole, bottomFieldFirst: false)
        #expect(half.width == 160 && half.height == 60)
        let refused = try Self.decodedLuma(pictures.whole + [0xFF, 0xD8, 0xFF, 0xD9], bottomFieldFirst: false)
        #expect(refused.width == 160 && refused.height == 120)
    }

    /// A sample without a JPEG image is a malformed sample, not a crash.
    @Test func aSampleWithoutAnImageIsMalformed() throws {
        let error = try #require(throws: DecodeError.self) { _ = try Self.decodedLuma([0, 1, 2, 3], bottomFieldFirst: false) }
        #expect(error.code == .malformedSample)
    }
}
