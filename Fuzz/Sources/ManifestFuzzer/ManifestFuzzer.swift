import StreamManifests

/// libFuzzer entry point: the input as a playlist or manifest (any bytes, decoded as UTF-8 with repairs), read by
/// `StreamManifest.read` against a base URL, then every rendition's segments asked for by index (the first, the
/// last, past the end) and by time (nine times, including the ends of `Duration`), and a rendition picked for three
/// boxes. `ManifestError` is the expected answer to bad input. Traps if a segment answered for a time does not
/// contain it, or if a segment that lasts is not the one found at its own start.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var sink = 0
    if let format = StreamManifest.format(of: bytes) { sink &+= format == .hls ? 1 : 2 }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let presentation = try? StreamManifest.read(text, url: "https://example.com/streams/a/manifest") else {
        return 0
    }
    let times: [Duration] = [.seconds(-1), .zero, .milliseconds(500), .seconds(10), .seconds(3_599) + .milliseconds(999),
                             .nanoseconds(1), .seconds(1_000_000_000), .seconds(Int64.max), .seconds(Int64.min)]
    for period in presentation.periods {
        for box in [(Optional(160), Optional(90)), (nil, nil), (Optional(4_000), Optional(1))] {
            sink &+= period.videoRendition(fitting: box.0, box.1)?.width ?? 0
        }
        for rendition in period.renditions {
            guard let segments = rendition.segments else { continue }
            let count = segments.count
            for index in [0, 1, (count ?? 2) - 1, count ?? 1_000_000, Int.max, -1] {
                guard let segment = segments.segment(at: index) else { continue }
                sink &+= segment.resource.url.utf8.count
                // Segments do not overlap, so each that lasts is the one found at its own start.
                if !segment.timeRange.isEmpty, segments.index(containing: segment.timeRange.lowerBound) != index {
                    fatalError("segment \(index) starts at \(segment.timeRange.lowerBound), where another is found")
                }
            }
            for time in times {
                guard let segment = segments.segment(containing: time) else { continue }
                guard segment.timeRange.contains(time) else {
                    fatalError("segment(containing: \(time)) answered \(segment.timeRange)")
                }
                sink &+= Int(segment.number & 0xFF)
            }
            sink &+= segments.timeRange == nil ? 0 : 1
        }
    }
    withExtendedLifetime(sink) {}
    return 0
}
