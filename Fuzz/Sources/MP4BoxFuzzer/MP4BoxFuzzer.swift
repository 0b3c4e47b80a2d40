import FuzzSupport
import MP4Box

/// libFuzzer entry point: parse the input as a whole MP4 file, then make every lookup a thumbnailer makes. When the
/// file has a segment index, parse it again as the index boxes a locator keeps (one span at offset 0, as the on-disk
/// index cache reads them back) with fragments on demand, and make the lookups on that movie too.
/// Thrown `MP4Error`s are the expected outcome for bad input; only traps, sanitizer reports, hangs and OOMs count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MovieParser.parse(fileBytes: bytes) else { return 0 }
    blackHole(exerciseLookups(movie))
    guard !movie.segmentIndexes.isEmpty else { return 0 }
    var indexBoxes = HeldBytes()
    indexBoxes.insert(bytes, at: 0)
    guard let indexed = try? MovieParser.parse(indexBoxes: indexBoxes, fragmentsOnDemand: true) else { return 0 }
    blackHole(exerciseLookups(indexed) &+ indexed.readSubsegments.count &+ (indexed.fragmentIndex?.subsegments.count ?? 0))
    return 0
}
