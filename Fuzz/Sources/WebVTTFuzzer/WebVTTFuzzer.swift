import FuzzSupport
import Storyboards

/// libFuzzer entry point: the input as a WebVTT thumbnail track (any bytes, decoded as UTF-8 with repairs), read
/// by `StoryboardTrack` against a base URL, then asked for the tile at several times; and its first line as
/// one cue payload (`StoryboardReference`). `StoryboardError` is the expected answer to bad input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var sink = 0
    if let track = try? StoryboardTrack(webVTT: text, baseURL: "https://example.com/movies/storyboard.vtt") {
        sink &+= track.cues.count
        for seconds in [-1, 0, 0.5, 10, 3599.999, 1e9, 1e300, -1e300, .infinity, .nan] {
            if let tile = track.tile(at: seconds) { sink &+= tile.url.utf8.count }
        }
    }
    if let line = text.split(separator: "\n").first,
       let reference = try? StoryboardReference(parsing: String(line)) {
        sink &+= reference.url.utf8.count &+ (reference.region?.width ?? 0)
    }
    blackHole(sink)
    return 0
}
