import MP4Box

/// libFuzzer entry point: parse the input as a whole MP4 file, then make every lookup a thumbnailer makes.
/// Thrown `MP4Error`s are the expected outcome for bad input; only traps, sanitizer reports, hangs and OOMs count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MovieParser.parse(fileBytes: bytes) else { return 0 }
    var sink = movie.artwork.count &+ movie.tracks.count
    _ = movie.durationSeconds
    for track in movie.tracks {
        let count = track.samples.count
        sink &+= count
        if count > 0 {
            for index in [0, count / 2, count - 1] {
                if let sample = try? track.samples.sample(at: index) { sink &+= Int(sample.size) }
            }
        }
        let duration = track.durationSeconds
        let middle = track.presentationTime(seconds: duration.isFinite ? duration / 2 : 0)
        for time in [0, middle, Int64.max / 2, Int64.max, -1, Int64.min] {
            if let sample = try? track.sample(displayedAt: time) { sink &+= sample.index }
            if let sample = try? track.syncSample(nearest: time) { sink &+= sample.index }
            if let sample = try? track.syncSample(atOrBefore: time) { sink &+= sample.index }
        }
        if let parameters = track.videoParameters { sink &+= parameters.width &+ parameters.height }
        if let size = track.displaySize { sink &+= size.width &+ size.height }
    }
    blackHole(sink)
    return 0
}

@inline(never)
func blackHole(_ value: Int) {
    if value == 0x5eed_f00d { print("") }
}
