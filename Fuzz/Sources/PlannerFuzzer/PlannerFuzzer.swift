import FuzzSupport
import MP4Box
import Thumbs

/// The selections `image(at:)` makes: nearest keyframe, exact, and bounded windows on either side.
private let selections: [FrameSelection] = [
    .nearestKeyframe, .exact, FrameSelection(toleranceBefore: .milliseconds(500), toleranceAfter: .milliseconds(500)),
    FrameSelection(toleranceBefore: .zero, toleranceAfter: nil), FrameSelection(toleranceBefore: nil, toleranceAfter: .zero),
]

/// libFuzzer entry point: parse the input, pick the thumbnail track as `ThumbnailGenerator` does, and plan the
/// picture for every lookup time and selection (`image(at:)` without fetching or decoding), with the byte ranges
/// the fetch would read. `ThumbnailError` and `MP4Error` are expected answers; traps, hangs and OOMs are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MovieParser.parse(fileBytes: bytes), let track = try? movie.thumbnailTrack() else { return 0 }
    var limits = ThumbnailLimits()
    limits.maximumDecodedSamples = 500  // the default is 20,000: smaller keeps each input fast
    var sink = 0
    for time in lookupTimes(of: track) {
        for selection in selections {
            guard let plan = try? FramePlanner.plan(track: track, time: time, selection: selection, limits: limits) else { continue }
            sink &+= plan.samples.count &+ plan.byteRanges(maximumGap: 64 * 1024).count
            sink &+= Int(truncatingIfNeeded: plan.targetPresentationTime &- plan.keyframePresentationTime)
        }
    }
    blackHole(sink)
    return 0
}
