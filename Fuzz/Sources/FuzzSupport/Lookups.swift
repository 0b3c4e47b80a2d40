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

/// The lookup times of `track`: the raw ones, mid-duration and the seconds above, in its timescale.
public func lookupTimes(of track: MovieTrack) -> [Int64] {
    var times = rawTimesToTry
    times.append(track.presentationTime(seconds: track.durationSeconds / 2))
    for seconds in secondsToTry { times.append(track.presentationTime(seconds: seconds)) }
    return times
}

/// Every lookup a thumbnailer makes on every track of `movie`; returns a value derived from all the answers.
public func exerciseLookups(_ movie: Movie) -> Int {
    var sink = movie.artwork.count &+ movie.tracks.count &+ Int(truncatingIfNeeded: movie.durationSeconds.bitPattern)
    for track in movie.tracks {
        let count = track.samples.count
        sink &+= count
        if count > 0 {
            for index in [0, count / 2, count - 1] {
                if let sample = try? track.samples.sample(at: index) { sink &+= Int(sample.size) }
            }
        }
        sink &+= Int(truncatingIfNeeded: track.durationSeconds.bitPattern)
        for time in lookupTimes(of: track) {
            if let sample = try? track.sample(displayedAt: time) { sink &+= sample.index }
            if let sample = try? track.syncSample(nearest: time) { sink &+= sample.index }
            if let sample = try? track.syncSample(atOrBefore: time) { sink &+= sample.index }
        }
        if let parameters = track.videoParameters { sink &+= parameters.width &+ parameters.height }
        if let size = track.displaySize { sink &+= size.width &+ size.height }
    }
    return sink
}

/// Keeps the optimiser from dropping the lookups' results.
@inline(never)
public func blackHole(_ value: Int) {
    if value == 0x5eed_f00d { print("") }
}
