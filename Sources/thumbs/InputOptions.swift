import ArgumentParser
import ByteSources
import Foundation
import HTTPTypes
import MP4Box
import RangeFetch
import StreamManifests
import Thumbs

/// The input options every subcommand shares: a path or URL, request headers and `--stats`.
struct InputOptions: ParsableArguments {
    @Argument(help: "Path of an MP4 or QuickTime file, an http(s) URL, or s3://bucket/key (signed from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION; AWS_ENDPOINT_URL for an S3-compatible store).")
    var input: String

    @Option(name: .customLong("header"), help: "A request header for URLs, as 'Name: value' (repeatable).")
    var headers: [String] = []

    @Flag(help: "Print what fetching cost as one JSON object on the last line of standard error.")
    var stats = false

    @Option(help: "How much of a large moov to read: whole, or video (the video tracks only).")
    var index: String = "whole"

    @Option(name: .customLong("max-bytes"), help: "For URLs: stop once more body bytes than this have arrived (mid-transfer).")
    var maximumBytes: UInt64?

    @Option(name: .customLong("max-requests"),
            help: "For URLs: send at most this many requests (default \(Self.onePictureRequestBudget) for one picture; none for a storyboard or an animation).")
    var maximumRequests: Int?

    /// The request budget of a command that makes one picture (`thumbnail`, `info`, `decode`) when `--max-requests`
    /// is not given: the index (the ends, a moov past them, a fragment or two) and the keyframe's reads with their
    /// retries take a handful; a hostile index that would be walked one request at a time stops here, as bad input.
    static let onePictureRequestBudget = 256

    /// Lifts the default request budget (to one never reached): for commands of many pictures (a storyboard, an
    /// animation), whose requests grow with the movie's keyframes; `--max-requests` still holds when given.
    mutating func makesManyPictures() {
        if maximumRequests == nil { maximumRequests = .max }
    }

    @Option(help: "For URLs: seconds after the first request when requests and bodies still arriving fail.")
    var deadline: Double?

    /// The locator the options ask for, reading a fragmented movie's moofs as `fragments` says.
    func locator(fragments: MovieLocator.FragmentReading = .all) -> MovieLocator {
        var options = MovieLocator.Options(fragmentReading: fragments)
        options.readsOnlyVideoTracks = index == "video"
        return MovieLocator(options: options)
    }

    /// Whether the input is a URL (http, https or s3).
    var isURL: Bool { Self.isURL(input) }

    /// Whether `input` is a URL (http, https or s3).
    static func isURL(_ input: String) -> Bool {
        let lowered = input.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || S3Location.isS3(input)
    }

    func validate() throws {
        if input.isEmpty { throw ValidationError("the input is empty") }
        if !["whole", "video"].contains(index) { throw ValidationError("--index takes whole or video") }
        if let maximumRequests, maximumRequests < 1 { throw ValidationError("--max-requests must be at least 1") }
        if let deadline, !(deadline > 0 && deadline.isFinite) { throw ValidationError("--deadline must be a positive number of seconds") }
        for header in headers where Self.field(header) == nil {
            throw ValidationError("--header takes 'Name: value' with a valid field name, not '\(header)'")
        }
    }

    /// The field `header` ('Name: value') gives; nil when it has no colon or its name is not a valid field name.
    static func field(_ header: String) -> HTTPField? {
        let parts = header.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let name = HTTPField.Name(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        return HTTPField(name: name, value: parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// How a URL is fetched: the headers and budgets the options give.
    private var fetchOptions: HTTPFetchOptions {
        var options = HTTPFetchOptions()
        options.headers = HTTPFields(headers.compactMap(Self.field))
        options.maximumBytes = maximumBytes
        options.maximumRequests = maximumRequests ?? Self.onePictureRequestBudget
        options.deadline = deadline.flatMap { .limit(seconds: $0) }
        return options
    }

    /// What the origins asked so far answer to several ranges at once: the memory of the client URLs are fetched
    /// through.
    var rangeSupport: OriginRangeSupport {
        RangeFetchClient.shared(for: fetchOptions).rangeSupport
    }

    /// The input as a URL fetched with these options (an `s3://` one signed from the environment), nil for a file.
    func remoteInput() throws -> (any MovieInput)? {
        try Self.remoteInput(input, options: fetchOptions)
    }

    /// `input` as a URL fetched with `options` (an `s3://` one signed from the environment), nil for a file.
    static func remoteInput(_ input: String, options: HTTPFetchOptions) throws -> (any MovieInput)? {
        if S3Location.isS3(input) { return try S3Input(url: input, options: options) }
        return isURL(input) ? try HTTPInput(url: input, options: options) : nil
    }

    /// The input as a `MovieInput`: a URL's (`remoteInput()`), else the file's.
    func movieInput() throws -> any MovieInput {
        try remoteInput() ?? FileInput(path: input)
    }

    /// Runs `body` on the media the input holds (`Media.withMedia`, the one rule), a movie's index kept in `indexes`
    /// when there is one and read again when the bytes changed under it; the moofs of a fragmented movie read as
    /// `fragments` says. An error other than an exit code is told as one line about the input, then the statistics of what the
    /// movie's session fetched, and becomes the exit code sysexits.h gives it. When a change made `body` run again,
    /// the statistics of the first attempt are printed before the second starts.
    func withMedia<Result>(indexes: (any MovieIndexStore)? = nil, sampleCacheBytes: Int,
                           fragments: MovieLocator.FragmentReading = .onDemand, onStoreFailure: (any Error) -> Void = { _ in },
                           _ body: (Media) async throws -> Result) async throws -> Result {
        var current: MovieSession?
        let input = try await reportingErrors(statisticsOf: { nil }) { try movieInput() }
        return try await reportingErrors(statisticsOf: { current?.source }) {
            try await Media.withMedia(of: input, indexes: indexes, sampleCacheBytes: sampleCacheBytes,
                                      locator: locator(fragments: fragments), onStoreFailure: onStoreFailure) { media in
                if case .movie(let session) = media {
                    if let stopped = current { await printStats(of: stopped.source) }
                    current = session
                } else {
                    current = nil  // a stream's reads are the caller's meter's, not a failed movie reading's
                }
                return try await body(media)
            }
        }
    }

    /// Runs `body`; an error other than an exit code is told as one line about the input, then the statistics of
    /// the source `statisticsOf` gives (if any), and becomes the exit code sysexits.h gives it.
    func reportingErrors<Result>(statisticsOf source: () -> (any ByteSource)?,
                                 _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as ExitCode {
            throw error
        } catch {
            printError(errorMessage(error, about: input))
            if let source = source() { await printStats(of: source) }
            throw ExitCode.forError(error)
        }
    }

    /// Opens the input as a byte source that counts what it reads.
    func openSource() throws -> any ByteSource {
        if let remote = try remoteInput() {
            return CountingByteSource(try remote.open(known: nil))
        }
        return CountingByteSource(try FileByteSource(path: input))
    }

    /// Opens the input and runs `body` on it. An error other than an exit code (opening included) is told as one line
    /// about the input, then the statistics of what was fetched, and becomes the exit code sysexits.h gives it.
    func withOpenedSource(_ body: (any ByteSource) async throws -> Void) async throws {
        let source: any ByteSource = try await reportingErrors(statisticsOf: { nil }) { try openSource() }
        try await reportingErrors(statisticsOf: { source }) { try await body(source) }
    }

    /// Prints the source's fetch statistics as one JSON line on standard error, when `--stats` asked for it.
    func printStats(of source: any ByteSource, extra: [String: Double] = [:], labels: [String: String?] = [:]) async {
        printStats(await source.statistics ?? FetchStats(), extra: extra, labels: labels)
    }

    /// Prints `fetched`, the figures and a best frame's candidates as one JSON line on standard error, when `--stats`
    /// asked for it.
    func printStats(_ fetched: FetchStats, extra: [String: Double] = [:], labels: [String: String?] = [:],
                    candidates: [BestFrameCandidate] = []) {
        guard stats else { return }
        printError(StatsLine(fetch: fetched, extra: extra, labels: labels.compactMapValues { $0 }, candidates: candidates).json)
    }
}

/// The JSON line `--stats` prints: the fetch statistics flattened, plus timings of later stages.
struct StatsLine {
    var fetch: FetchStats
    var extra: [String: Double]
    /// Text fields (the thumbnail's placeholder).
    var labels: [String: String] = [:]
    /// The keyframes `--best` chose among: `candidates`, each with its time, sample, measures, terms and score.
    var candidates: [BestFrameCandidate] = []

    var json: String {
        var object: [String: Any] = [
            "requests": fetch.requests, "bytes": fetch.bytes, "roundTrips": fetch.roundTrips,
            "connections": fetch.connectionsOpened.map { $0 as Any } ?? NSNull(), "ignoredRange": fetch.ignoredRangeResponses, "retries": fetch.retries,
            "wallMs": (fetch.wallTime.milliseconds * 10).rounded() / 10,
            "perRequest": fetch.log.map { request -> [String: Any] in
                var entry: [String: Any] = ["start": request.start, "status": request.status, "bytes": request.bytes,
                                            "ms": (request.elapsed.milliseconds * 10).rounded() / 10]
                if let end = request.end { entry["end"] = end }
                if let suffix = request.suffixLength { entry["suffix"] = suffix }
                return entry
            },
        ]
        if let firstByte = fetch.timeToFirstByte { object["ttfbMs"] = (firstByte.milliseconds * 10).rounded() / 10 }
        for (key, value) in extra { object[key] = value }
        for (key, value) in labels { object[key] = value }
        if !candidates.isEmpty { object["candidates"] = candidates.map(Self.object(of:)) }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A best-frame candidate as JSON: its time, sample and whether it was chosen; its score (`score`, the
    /// `FrameScore` terms and measures, and `rejection` when refused) or why it could not be decoded (`failure`).
    private static func object(of candidate: BestFrameCandidate) -> [String: Any] {
        var entry: [String: Any] = ["time": candidate.time, "chosen": candidate.isChosen]
        if let sample = candidate.sample { entry["sample"] = sample }
        if let segment = candidate.segment { entry["segment"] = segment }
        if let failure = candidate.failure { entry["failure"] = failure }
        guard let score = candidate.score else { return entry }
        let rounded = { (value: Double) in (value * 10_000).rounded() / 10_000 }
        entry["score"] = rounded(score.value)
        entry["terms"] = ["exposure": rounded(score.exposureTerm), "contrast": rounded(score.contrastTerm),
                          "sharpness": rounded(score.sharpnessTerm), "colourfulness": rounded(score.colourfulnessTerm),
                          "entropy": rounded(score.entropyTerm)]
        entry["measures"] = ["meanLuma": rounded(score.meanLuma), "lumaDeviation": rounded(score.lumaDeviation),
                             "darkShare": rounded(score.darkShare), "laplacianVariance": rounded(score.laplacianVariance),
                             "colourfulness": rounded(score.colourfulness), "entropy": rounded(score.entropy)]
        if let rejection = score.rejection { entry["rejection"] = rejection.rawValue }
        return entry
    }
}
