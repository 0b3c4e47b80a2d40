import FuzzSupport
import RangeFetchTestSupport

/// libFuzzer entry point: `HTTPByteSource` over a server the input scripts, then `MovieLocator`, the lookups and a
/// few reads through it (`ScriptedFetchCase`, which the tests also replay findings with), so that status codes,
/// Content-Range, validators, redirects, body lengths, chunking and transport errors reach the response handling
/// in any order. A broken invariant traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let fetchCase = ScriptedFetchCase(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    runBlocking {
        let report = await fetchCase.run()
        if let movie = report.movie { blackHole(exerciseLookups(movie)) }
        if let violation = report.violations.first { fatalError(violation) }
    }
    return 0
}
