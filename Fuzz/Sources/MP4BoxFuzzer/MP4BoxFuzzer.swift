import FuzzSupport
import MP4Box

/// libFuzzer entry point: parse the input as a whole MP4 file, then make every lookup a thumbnailer makes.
/// Thrown `MP4Error`s are the expected outcome for bad input; only traps, sanitizer reports, hangs and OOMs count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MovieParser.parse(fileBytes: bytes) else { return 0 }
    blackHole(exerciseLookups(movie))
    return 0
}
