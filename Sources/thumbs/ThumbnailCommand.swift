import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import Thumbs

/// `thumbs thumbnail`: an upright, well-scaled thumbnail of one frame.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make a thumbnail: the keyframe nearest a time (or the exact frame), upright, fitted to a size, as PNG, JPEG or WebP, and its placeholder (ThumbHash)."
    )

    @OptionGroup var source: InputOptions

    @OptionGroup var when: TimeOption

    @Option(help: "Time as a percentage of the duration.")
    var percent: Double?

    @Option(help: "Frame number in presentation order (decoded exactly).")
    var frame: Int?

    @Flag(help: "The newest keyframe: of a live HLS or DASH stream, the last of its newest segment; of a movie or a stream that has ended, its last.")
    var latest = false

    @Flag(help: "The keyframe that makes the best poster among --candidates spread over the movie (its first and last 5 % left out): near-black, flat, blurred and fading pictures lose. With --stats, each candidate's time and score.")
    var best = false

    @Option(help: "How many keyframes --best chooses among, 1-100.")
    var candidates: Int = 10

    @Option(name: .customLong("max-size"), help: "Largest size: N bounds the longer side, WxH a box (0 leaves a side free).")
    var maxSize: String?

    @Option(help: "How the picture fits the box: fit, fill, pad or stretch.")
    var fit: String = "fit"

    @Flag(help: "The exact frame on screen at the time (tolerance zero), decoded from the keyframe before it.")
    var exact = false

    @Option(name: .customLong("tolerance-before"), help: "Seconds before the time the frame may be (inf: any).")
    var toleranceBefore: Double?

    @Option(name: .customLong("tolerance-after"), help: "Seconds after the time the frame may be (inf: any).")
    var toleranceAfter: Double?

    @OptionGroup var transform: TransformOption

    @Option(help: "Output format: png, jpeg or webp (default: from the file name, else png).")
    var format: String?

    @Option(help: "JPEG or lossy WebP quality, 1-100.")
    var quality: Int = 85

    @Flag(help: "Lossless WebP (every pixel kept) instead of lossy.")
    var lossless = false

    @Flag(name: .customLong("skip-dark"), help: "Move to the next keyframe when the frame is near-black or flat.")
    var skipDark = false

    @Flag(name: .customLong("keep-hdr"), help: "Keep HDR signal values in a 16-bit PNG instead of tone-mapping.")
    var keepHDR = false

    @Flag(help: "Print the thumbnail's placeholder (a ThumbHash, base64) on standard output; without -o, only that.")
    var placeholder = false

    @Option(name: .customLong("placeholder-image"),
            help: "Also write the placeholder as the picture it stands for (a PNG, 32 px along the longer side).")
    var placeholderImage: String?

    @Option(name: .customLong("cache-dir"),
            help: "For URLs: keep the movie's index in this directory, so that the next thumbnail of the URL reads only its picture (checked with If-Range), and what each origin answers to several ranges at once.")
    var cacheDirectory: String?

    @Option(name: .customLong("cache-size"), help: "Megabytes the --cache-dir directory may hold (the least recently used indexes go first).")
    var cacheSize: Int = 64

    @Option(name: .shortAndLong, help: "Where to write the image: a .png, .jpg or .webp file name (or another with --format), or - for standard output.")
    var output: String?

    func validate() throws {
        if [when.time != nil, percent != nil, frame != nil, latest, best].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --time, --percent, --frame, --latest and --best")
        }
        if !(1...100).contains(candidates) { throw ValidationError("--candidates must be between 1 and 100") }
        if let percent, !(0...100).contains(percent) { throw ValidationError("--percent must be between 0 and 100") }
        if let frame, frame < 0 { throw ValidationError("--frame must not be negative") }
        if maxSize != nil, (try? parsedMaximumSize()) == nil { throw ValidationError("--max-size takes N or WxH, like 320 or 320x180") }
        if parsedFit == nil { throw ValidationError("--fit takes fit, fill, pad or stretch") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
        if let format, ImageFormat(named: format, quality: quality) == nil {
            throw ValidationError("--format takes png, jpeg or webp")
        }
        guard let output else {
            if placeholder || placeholderImage != nil { return }
            throw ValidationError("give -o FILE (or - for standard output), --placeholder or --placeholder-image FILE")
        }
        if placeholder, output == "-" { throw ValidationError("--placeholder prints on standard output: give -o a file name") }
        if format == nil, output != "-", !outputExtension.isEmpty, ImageFormat(named: outputExtension, quality: quality) == nil {
            throw ValidationError("cannot write a .\(outputExtension) file: name it .png, .jpg or .webp, or give --format png, jpeg or webp")
        }
        if lossless, outputFormat.name != "webp" { throw ValidationError("--lossless is for WebP output") }
        for tolerance in [toleranceBefore, toleranceAfter] {
            if let tolerance, !(tolerance >= 0) { throw ValidationError("tolerances must be non-negative seconds") }
        }
    }

    private var parsedFit: RenderOptions.FitMode? {
        switch fit.lowercased() {
        case "fit": .fit
        case "fill": .fill
        case "pad": .pad
        case "stretch": .stretch
        default: nil
        }
    }

    /// `N` (the longer side, so NxN) or `WxH`.
    private func parsedMaximumSize() throws -> PixelSize {
        guard let maxSize else { return PixelSize(width: 0, height: 0) }
        let parts = maxSize.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 1, let side = Int(parts[0]), side >= 0 { return PixelSize(width: side, height: side) }
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            throw ValidationError("bad --max-size")
        }
        return PixelSize(width: width, height: height)
    }

    private var outputExtension: String { URL(fileURLWithPath: output ?? "").pathExtension.lowercased() }

    /// --format, else the output's extension; `png` for standard output or a name without an extension.
    private var outputFormatName: String { format?.lowercased() ?? (output == "-" ? "png" : outputExtension) }

    private var outputFormat: ImageFormat { ImageFormat(named: outputFormatName, quality: quality, lossless: lossless) ?? .png }

    /// The thumbnail options the flags ask for.
    private func thumbnailOptions() throws -> ThumbnailOptions {
        var options = ThumbnailOptions()
        options.maximumSize = try parsedMaximumSize()
        options.fitMode = parsedFit ?? .fit
        options.appliesPreferredTrackTransform = transform.appliesPreferredTrackTransform
        options.format = output == nil ? nil : outputFormat
        options.skipsDarkFrames = skipDark
        options.bestFrameCandidateCount = candidates
        options.makesPlaceholder = placeholder || placeholderImage != nil || source.stats
        options.keepsHDR = keepHDR
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        if let toleranceBefore { options.requestedTimeToleranceBefore = .limit(seconds: toleranceBefore) }
        if let toleranceAfter { options.requestedTimeToleranceAfter = .limit(seconds: toleranceAfter) }
        return options
    }

    /// The time the flags ask for (nil: the default); `--latest` of a movie is its end (its last keyframe).
    private var requestedTime: ThumbnailTime? {
        if let seconds = when.time { .seconds(seconds) } else if let percent { .fraction(percent / 100) }
            else if let frame { .frame(frame) } else if latest { .latest } else if best { .best } else { nil }
    }

    func run() async throws {
        let started = ContinuousClock.now
        try await source.run(movie: { try await runMovie(started: started) }, stream: { try await runStream(started: started) })
    }

    private func runMovie(started: ContinuousClock.Instant) async throws {
        let options = try thumbnailOptions()
        let time = requestedTime
        let cache = source.isURL ? try openedCacheDirectory() : nil
        let originsFile = cache?.directory.appendingPathComponent(Self.originsFileName)
        if let originsFile { source.rangeSupport.learn(contentsOf: originsFile) }
        let (thumbnail, session) = try await source.withSession(indexes: cache, sampleCacheBytes: options.limits.sampleCacheBytes,
                                                                onStoreFailure: { error in
            printError("thumbs: warning: --cache-dir \(cache?.directory.path ?? ""): the index was not kept: \(fileFailureReason(error))")
        }) { session in
            do {
                return (try await ThumbnailGenerator(session: session, options: options).image(at: time), session)
            } catch {
                try await session.streamOrRethrow(error)
            }
        }
        if let originsFile, let cache {
            do {
                try source.rangeSupport.write(to: originsFile)
            } catch {
                printError("thumbs: warning: --cache-dir \(cache.directory.path): what origins answer was not kept: \(fileFailureReason(error))")
            }
        }
        try await source.reportingErrors(statisticsOf: { session.source }) { try write(thumbnail) }
        let fetched = await session.source.statistics ?? FetchStats()
        source.printStats(fetched, extra: figures(of: thumbnail, started: started),
                          labels: ["placeholder": thumbnail.placeholder?.base64], candidates: thumbnail.candidates)
    }

    /// An HLS playlist or a DASH manifest: the picture of a rendition's segment (`StreamThumbnailGenerator`).
    private func runStream(started: ContinuousClock.Instant) async throws {
        let options = try thumbnailOptions()
        let time = requestedTime
        let made = try await source.reportingErrors(statisticsOf: { nil }) {
            return try await StreamThumbnailGenerator(input: try source.movieInput(), options: options).image(at: time)
        }
        try await source.reportingErrors(statisticsOf: { nil }) { try write(made.thumbnail) }
        source.printStats(made.fetchStatistics, extra: figures(of: made.thumbnail, started: started).merging([
            "segmentNumber": Double(made.segment.number),
            "segmentStart": made.segment.timeRange.lowerBound.seconds,
        ]) { $1 }, labels: [
            "rendition": made.rendition.summary,
            "segment": made.segment.resource.description,
            "programDateTime": made.programDateTime?.description,
            "placeholder": made.thumbnail.placeholder?.base64,
        ])
    }

    /// Writes the picture and the placeholder where the flags ask.
    private func write(_ thumbnail: Thumbnail) throws {
        if let output { try writeOutput(thumbnail.encoded, to: output) }
        if placeholder, let hash = thumbnail.placeholder { print(hash.base64) }
        if let placeholderImage, let hash = thumbnail.placeholder {
            try writeOutput(try ImageFormat.png.encode(hash.image()), to: placeholderImage)
        }
    }

    /// The `--stats` figures of a thumbnail.
    private func figures(of thumbnail: Thumbnail, started: ContinuousClock.Instant) -> [String: Double] {
        let wall = (ContinuousClock.now - started).milliseconds
        let timings = thumbnail.timings
        return [
            "actualTime": thumbnail.actualTime, "keyframeTime": thumbnail.keyframeTime,
            "indexMs": rounded(timings.index.milliseconds), "fetchMs": rounded(timings.fetch.milliseconds),
            "decodeMs": rounded(timings.decode.milliseconds), "renderMs": rounded(timings.render.milliseconds),
            "encodeMs": rounded(timings.encode.milliseconds), "wallMs": rounded(wall),
            "width": Double(thumbnail.image.width), "height": Double(thumbnail.image.height),
            "decodedSamples": Double(thumbnail.decodedSamples),
        ]
    }

    /// The file in the `--cache-dir` directory that keeps what origins answer to several ranges at once
    /// (`OriginRangeSupport`), so a later process asks a multipart origin for the ends in one request.
    static let originsFileName = "origins.json"

    /// The `--cache-dir` directory, made when missing; nil without the option.
    /// - Throws: `ExitCode.ioError` (with a line on standard error) when it cannot be made.
    private func openedCacheDirectory() throws -> MovieIndexDirectory? {
        guard let cacheDirectory else { return nil }
        do {
            return try MovieIndexDirectory(path: cacheDirectory, maximumBytes: cacheSize << 20)
        } catch {
            printError("thumbs: --cache-dir \(cacheDirectory): \(fileFailureReason(error))")
            throw ExitCode.ioError
        }
    }

    private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
