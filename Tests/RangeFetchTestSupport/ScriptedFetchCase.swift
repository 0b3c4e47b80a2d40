import ByteSources
import MP4Box
import RangeFetch
import Thumbs

/// One HTTPFuzzer input, run: an `HTTPByteSource` over a `ScriptedTransport`, `MovieLocator` on top, four reads
/// (one past the end) and a suffix read, each checked against what must hold whatever the server says.
///
/// Input: byte 0 the options (bits 0-1 retries, bit 2 the restart policy on a change, bit 3 a 64 KiB byte budget,
/// bit 4 at most one redirect, bit 5 no locator, bit 6 the locator reads ends of 1 KiB, so that files of a few KiB
/// already get `multipart/byteranges` answers, bit 7 the origin is known to answer several ranges at once, so the
/// ends go in one request; without it they go as two side by side); bytes 1-2 the script's length (big-endian); the script (four
/// bytes an answer, see `ScriptedTransport`); the rest is the file. The fuzzer traps on a violation; the tests
/// replay its findings and require none.
public struct ScriptedFetchCase: Sendable {
    /// What a run found.
    public struct Report: Sendable {
        /// Broken invariants: more bytes than asked, an untyped error, honest answers that gave other bytes or
        /// another movie, a suffix past the length the source reports.
        public var violations: [String] = []
        /// What each step ended as: "bytes N", "movie with N tracks", or the error's code.
        public var outcomes: [String] = []
        /// The movie located, if one was.
        public var movie: Movie?
        /// What the scripted server was asked and answered.
        public var exchanges: [String] = []
    }

    public let options: HTTPFetchOptions
    public let script: ArraySlice<UInt8>
    public let file: [UInt8]
    public let runsLocator: Bool
    /// Whether the client starts knowing the origin answers several ranges with `multipart/byteranges`.
    public let knownMultipart: Bool
    /// How the locator reads (its first read's head and tail sizes).
    public let locatorOptions: MovieLocator.Options

    /// The case an input describes; nil when it is shorter than its three header bytes.
    public init?(_ input: [UInt8]) {
        guard input.count >= 3 else { return nil }
        let flags = input[0]
        let scriptLength = min(Int(input[1]) << 8 | Int(input[2]), input.count - 3)
        script = input[3..<(3 + scriptLength)]
        file = Array(input[(3 + scriptLength)...])
        var options = HTTPFetchOptions()
        options.maximumRetries = Int(flags & 3)
        options.retryBackoff = .zero
        options.changePolicy = flags & 4 != 0 ? .restart : .fail
        options.maximumBytes = flags & 8 != 0 ? 64 << 10 : nil
        options.maximumRedirects = flags & 16 != 0 ? 1 : 5
        options.maximumRequests = 64
        self.options = options
        runsLocator = flags & 32 == 0
        knownMultipart = flags & 128 != 0
        var locatorOptions = MovieLocator.Options()
        if flags & 64 != 0 {
            locatorOptions.headSize = 1024
            locatorOptions.tailSize = 1024
        }
        self.locatorOptions = locatorOptions
    }

    /// Runs the case against a fresh scripted server.
    public func run() async -> Report {
        var report = Report()
        let transport = ScriptedTransport(script: script, file: file)
        let source: HTTPByteSource
        do {
            let client = RangeFetchClient(transport: transport)
            if knownMultipart { client.rangeSupport.remember(.multipart, for: "http://fuzz.example/") }
            source = try HTTPByteSource(url: "http://fuzz.example/movie.mp4", options: options, client: client)
        } catch {
            report.violations.append("a valid url was refused: \(error)")
            return report
        }
        if runsLocator {
            do {
                let located = try await MovieLocator(options: locatorOptions).locate(in: source)
                report.movie = located.movie
                report.outcomes.append("movie with \(located.movie.tracks.count) tracks")
                if transport.wasHonest, options.maximumBytes == nil {
                    let direct = try? await MovieLocator().locate(in: MemoryByteSource(file))
                    if direct?.movie.tracks.count != located.movie.tracks.count {
                        report.violations.append("honest answers located another movie than the file's own")
                    }
                }
            } catch {
                note(error, in: &report)
            }
        }
        let count = UInt64(file.count)
        for range in [0..<16, count / 2..<count / 2 + 100, count &- min(count, 10)..<count + 10, count + 5..<count + 6] {
            do {
                let bytes = try await source.read(range)
                report.outcomes.append("bytes \(bytes.count)")
                if bytes.count > range.count { report.violations.append("read \(range) gave \(bytes.count) bytes") }
                if transport.wasHonest, options.changePolicy == .fail {
                    let expected = file[Int(min(range.lowerBound, count))..<Int(min(range.upperBound, count))]
                    if !bytes.elementsEqual(expected) { report.violations.append("honest answers gave other bytes for \(range)") }
                }
            } catch {
                note(error, in: &report)
            }
        }
        do {
            let (bytes, offset) = try await source.readSuffix(100)
            report.outcomes.append("suffix \(bytes.count) at \(offset)")
            if bytes.count > 100 { report.violations.append("a suffix of 100 gave \(bytes.count) bytes") }
            if let length = await source.knownLength, offset + UInt64(bytes.count) > length {
                report.violations.append("suffix ends at \(offset + UInt64(bytes.count)), past the length \(length)")
            }
        } catch {
            note(error, in: &report)
        }
        report.exchanges = transport.log
        return report
    }

    /// Records a failure: its code when it is one of the typed answers to bad input, else a violation.
    private func note(_ error: any Error, in report: inout Report) {
        switch error {
        case let error as FetchError: report.outcomes.append("fetch \(error.code.rawValue)")
        case let error as MP4Error: report.outcomes.append("mp4 \(error.code.rawValue)")
        case is CancellationError: report.outcomes.append("cancelled")
        default: report.violations.append("untyped error \(type(of: error)): \(error)")
        }
    }
}
