import FuzzSupport
import MP4Box
import RangeFetch

/// libFuzzer entry point: `HTTPByteSource` over a server the input scripts, then `MovieLocator` and a few reads
/// through it, so that status codes, Content-Range, validators, redirects, body lengths, chunking and transport
/// errors reach the response handling in any order.
///
/// Byte 0: options (bits 0-1 retries, bit 2 the restart policy on a change, bit 3 a 64 KiB byte budget, bit 4 at
/// most one redirect, bit 5 hides nothing but skips the locator). Bytes 1-2: the script's length (big-endian);
/// then the script (four bytes per answer, see `ScriptedTransport`); the rest is the file.
///
/// Answers must be bytes of the range asked for (never more), or a typed error: `FetchError`, `MP4Error` or
/// `CancellationError`. With only honest answers, the located movie must be the one the file itself gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let flags = input[0]
    let scriptLength = min(Int(input[1]) << 8 | Int(input[2]), size - 3)
    let script = input[3..<(3 + scriptLength)]
    let file = Array(input[(3 + scriptLength)...])

    var configured = HTTPFetchOptions()
    configured.maximumRetries = Int(flags & 3)
    configured.retryBackoff = 0
    configured.changePolicy = flags & 4 != 0 ? .restart : .fail
    configured.maximumBytes = flags & 8 != 0 ? 64 << 10 : nil
    configured.maximumRedirects = flags & 16 != 0 ? 1 : 5
    configured.maximumRequests = 64
    let options = configured
    let transport = ScriptedTransport(script: script, file: file)
    let runsLocator = flags & 32 == 0

    runBlocking {
        let source: HTTPByteSource
        do {
            source = try HTTPByteSource(url: "http://fuzz.example/movie.mp4", options: options,
                                        client: RangeFetchClient(transport: transport))
        } catch {
            fatalError("a valid url was refused: \(error)")
        }
        if runsLocator {
            do {
                let located = try await MovieLocator().locate(in: source)
                blackHole(exerciseLookups(located.movie))
                if transport.wasHonest, options.maximumBytes == nil {
                    let direct = try? await MovieLocator().locate(in: FuzzByteSource(file, hidesLength: false))
                    check(direct?.movie.tracks.count == located.movie.tracks.count,
                          "honest answers located another movie than the file's own")
                }
            } catch {
                checkTyped(error)
            }
        }
        let count = UInt64(file.count)
        for range in [0..<16, count / 2..<count / 2 + 100, count &- min(count, 10)..<count + 10, count + 5..<count + 6] {
            do {
                let bytes = try await source.read(range)
                check(bytes.count <= range.count, "read \(range) gave \(bytes.count) bytes")
                if transport.wasHonest, options.changePolicy == .fail {
                    let lower = Int(min(range.lowerBound, count))
                    let expected = file[lower..<Int(min(range.upperBound, count))]
                    check(bytes.elementsEqual(expected), "honest answers gave other bytes for \(range)")
                }
            } catch {
                checkTyped(error)
            }
        }
        do {
            let (bytes, offset) = try await source.readSuffix(100)
            check(bytes.count <= 100, "a suffix of 100 gave \(bytes.count) bytes")
            if let length = await source.knownLength { check(offset + UInt64(bytes.count) <= length, "suffix past the end") }
        } catch {
            checkTyped(error)
        }
        blackHole(await source.stats.requests)
    }
    return 0
}

/// Traps (a fuzzer finding) unless `error` is one of the typed answers to bad input.
func checkTyped(_ error: any Error) {
    check(error is FetchError || error is MP4Error || error is CancellationError, "untyped error \(type(of: error)): \(error)")
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
