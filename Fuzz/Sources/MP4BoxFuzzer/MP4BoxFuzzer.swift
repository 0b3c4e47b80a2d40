import MP4Box
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lookup times in seconds, turned into each track's timescale by `presentationTime(seconds:)`, which clamps
/// to ±Int64.max / 4: the start, a huge time far past any end, the clamped maximum, and two before the start.
private let secondsToTry: [Double] = [0, 1e12, .greatestFiniteMagnitude, -1e12]

/// Raw times passed straight to the lookups besides the seconds above (-1 is just before the start).
/// `MP4BOX_FUZZ_EXTREME_TIMES=1` adds Int64.max and Int64.min, outside what `presentationTime(seconds:)` can return.
private let rawTimesToTry: [Int64] = {
    var times: [Int64] = [-1]
    if let value = getenv("MP4BOX_FUZZ_EXTREME_TIMES"), value.pointee == UInt8(ascii: "1") {
        times += [Int64.max, Int64.min]
    }
    return times
}()

/// libFuzzer entry point: parse the input as a whole MP4 file, then make every lookup a thumbnailer makes.
/// Thrown `MP4Error`s are the expected outcome for bad input; only traps, sanitizer reports, hangs and OOMs count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MovieParser.parse(fileBytes: bytes) else { return 0 }
    var sink = movie.artwork.count &+ movie.tracks.count &+ Int(truncatingIfNeeded: movie.durationSeconds.bitPattern)
    for track in movie.tracks {
        let count = track.samples.count
        sink &+= count
        if count > 0 {
            for index in [0, count / 2, count - 1] {
                if let sample = try? track.samples.sample(at: index) { sink &+= Int(sample.size) }
            }
        }
        let duration = track.durationSeconds
        sink &+= Int(truncatingIfNeeded: duration.bitPattern)
        var times = rawTimesToTry
        times.append(track.presentationTime(seconds: duration / 2))
        for seconds in secondsToTry { times.append(track.presentationTime(seconds: seconds)) }
        for time in times {
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

/// Keeps the optimiser from dropping the lookups' results.
@inline(never)
func blackHole(_ value: Int) {
    if value == 0x5eed_f00d { print("") }
}
