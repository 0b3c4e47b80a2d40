import FuzzSupport
import MP4Box
import Thumbs

/// libFuzzer entry point: `MovieLocator` over the input, with read sizes and switches taken from its first two bytes,
/// then every lookup on the located movie, and its `MovieSummary` as `thumbs info` and `/info` print it (text, JSON).
///
/// Byte 0: head size 16 << (bits 0-2) bytes, bit 3 hides the length, bit 4 reads only the video tracks (of any
/// moov), bit 5 reads no fragments, bit 6 (without bit 5) reads them on demand: those around the time the last
/// byte of the file gives, as a fraction of the duration, then every lookup again. Byte 1: fragment probe
/// 16 << (bits 0-2), track probe 64 << (bits 3-5), bit 6 a 64-byte tail limit (headers walked one read at a
/// time). The rest is the file. So the reads start and end
/// where the fuzzer says, and paths that only a small head, a hidden length or a partial moov take are reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let first = data[0]
    let second = data[1]
    let file = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    var options = MovieLocator.Options()
    options.headSize = 16 << Int(first & 7)
    options.readsOnlyVideoTracks = first & 0x10 != 0
    options.partialMoovThreshold = 0
    options.fragmentReading = first & 0x20 != 0 ? .none : first & 0x40 != 0 ? .onDemand : .all
    options.fragmentProbeSize = 16 << UInt64(second & 7)
    options.trackProbeSize = 64 << UInt64(second >> 3 & 7)
    options.tailReadLimit = second & 0x40 != 0 ? 64 : 16 << 20
    let locator = MovieLocator(options: options)
    let source = FuzzByteSource(file, hidesLength: first & 8 != 0)
    runBlocking {
        guard let located = try? await locator.locate(in: source) else { return }
        blackHole(exerciseLookups(located.movie) &+ located.reads.count)
        let summary = MovieSummary(located)
        blackHole(summary.text.utf8.count &+ ((try? summary.json())?.count ?? 0))
        guard let index = located.movie.fragmentIndex,
              let track = located.movie.tracks.first(where: { $0.id == index.trackID }) else { return }
        let fraction = Double(file.last ?? 0) / 255
        let time = Int64(Double(index.endTime) * fraction)
        let wanted = index.subsegments(around: time, timeline: track.timeline)
        guard let more = try? await locator.readingFragments(Array(wanted), of: located.movie, in: source,
                                                             held: located.heldBytes) else { return }
        blackHole(exerciseLookups(more.movie) &+ more.movie.readSubsegments.count &+ more.heldBytes.byteCount)
    }
    return 0
}
