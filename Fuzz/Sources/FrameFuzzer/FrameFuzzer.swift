import FrameDecode
import FuzzSupport
import MP4Box
import Thumbs

/// libFuzzer entry point: the whole path from bytes to a picture. The input is located as a file, its thumbnail
/// track planned at mid-duration (nearest keyframe) and exactly at a third (at most 8 samples), the samples
/// fetched and decoded by openh264, libde265 or dav1d (NAL splitting or OBU framing, parameter sets, reorder), and
/// each picture rendered into 64x64. Typed errors (`MP4Error`, `DecodeError`, `ThumbnailError`) are expected;
/// traps, sanitizer reports, decoder crashes, hangs and OOMs are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    runBlocking {
        let source = FuzzByteSource(bytes, hidesLength: false)
        guard let movie = try? await MovieLocator().locate(in: source).movie, let track = try? movie.thumbnailTrack() else { return }
        var limits = ThumbnailLimits()
        limits.maximumDecodedSamples = 8
        limits.maximumSampleSize = 1 << 20
        let extractor = FrameExtractor(source: source, track: track, limits: limits)
        let duration = track.durationSeconds
        let requests: [(Double, FrameSelection)] = [(duration / 2, .nearestKeyframe), (duration / 3, .exact)]
        var sink = 0
        for (seconds, selection) in requests {
            guard let plan = try? FramePlanner.plan(track: track, time: track.presentationTime(seconds: seconds),
                                                    selection: selection, limits: limits),
                  let frame = try? await extractor.frame(for: plan) else { continue }
            sink &+= frame.width &+ frame.height
            let options = RenderOptions(track: track, maximumSize: PixelSize(width: 64, height: 64), fitMode: .fit)
            if let image = try? Renderer.render(frame, options: options) { sink &+= image.pixels.count }
        }
        blackHole(sink)
    }
    return 0
}
