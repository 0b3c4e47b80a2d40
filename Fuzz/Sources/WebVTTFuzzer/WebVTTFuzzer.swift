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
        let times: [Duration] = [.seconds(-1), .zero, .milliseconds(500), .seconds(10), .milliseconds(3_599_999),
                                 .nanoseconds(1), .seconds(1_000_000_000), .seconds(Int64.max), .seconds(Int64.min)]
        for time in times {
            if let tile = track.tile(at: time) { sink &+= tile.url.utf8.count }
        }
        // A cue's own start is inside the tile answered for it: the cue running then that started last.
        for cue in track.cues.prefix(16) {
            let start = cue.timeRange.lowerBound
            guard let tile = track.tile(at: start), tile.timeRange.contains(start) else {
                fatalError("tile(at: \(start)) does not contain the time, though a cue starts there")
            }
        }
    }
    if let line = text.split(separator: "\n").first,
       let reference = try? StoryboardReference(parsing: String(line)) {
        sink &+= reference.url.utf8.count &+ (reference.region?.width ?? 0)
    }
    blackHole(sink)
    return 0
}
