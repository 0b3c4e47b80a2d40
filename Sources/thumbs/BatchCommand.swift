import ArgumentParser
import ByteSources
import Foundation
import HTTPTypes
import MP4Box
import RangeFetch
import Storyboards
import Thumbs
import ThumbsBatch

/// `thumbs batch`: thumbnails (and storyboards) of a library of movies in one process (`ThumbnailBatch`).
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Make thumbnails (and storyboards) of many movies in one process: directories, files, URLs and lists; outputs mirror the inputs' paths, what is current is skipped, and a stop leaves no half-written file."
    )

    @Argument(help: "Movies: files, directories (their MP4, MOV and 3GP files, in every subdirectory), http(s) or s3:// URLs.")
    var inputs: [String] = []

    @Option(name: .customLong("from"), help: "A file listing more inputs, one a line (- for standard input; repeatable).")
    var lists: [String] = []

    @Option(name: .shortAndLong, help: "The directory to write into, or an s3://bucket/prefix/ (each output an object, its record in its metadata): each thumbnail at its input's path relative to the directory or prefix given (a file's or URL's name), with the format's extension.")
    var output: String

    @OptionGroup var picture: ThumbnailFlags

    @Flag(help: "Also a storyboard of each movie (sprite sheets, storyboard.vtt and storyboard.json), in a folder named as the thumbnail without its extension, with .storyboard.")
    var storyboard = false

    @Option(help: "Write one JSON line per input to this file: input, output, outcome (made, skipped, failed), error, actualTime, bytes, ms.")
    var report: String?

    @Flag(help: "Make every output again, even those made before from the same version of their input.")
    var force = false

    @Option(help: "Movies worked on at once, 1-256 (default: two per core).")
    var jobs: Int?

    @Option(name: .customLong("header"), help: "A request header for URLs, as 'Name: value' (repeatable).")
    var headers: [String] = []

    func validate() throws {
        if inputs.isEmpty && lists.isEmpty { throw ValidationError("give inputs, or --from a list of them") }
        if let jobs, !(1...ThumbnailBatch.maximumMoviesAtOnce).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and \(ThumbnailBatch.maximumMoviesAtOnce)")
        }
        if picture.latest { throw ValidationError("--latest is for one live stream: a batch takes a time, --percent or --best") }
        if picture.frame != nil { throw ValidationError("--frame is for one movie: a batch takes a time, --percent or --best") }
        for header in headers where InputOptions.field(header) == nil {
            throw ValidationError("--header takes 'Name: value' with a valid field name, not '\(header)'")
        }
        try picture.checkLossless(writtenAs: formatName)
    }

    /// --format, else png.
    private var formatName: String { picture.format?.lowercased() ?? "png" }

    /// The outputs' extension: the format's usual one.
    private var formatExtension: String { formatName == "jpeg" ? "jpg" : formatName }

    func run() async throws {
        var fetchOptions = HTTPFetchOptions()
        fetchOptions.headers = HTTPFields(headers.compactMap(InputOptions.field))
        let listed: BatchInputs
        do {
            let arguments = inputs + (try lists.flatMap(BatchInputs.lines(of:)))
            let objectListings = try await Self.objectListings(of: arguments)
            listed = try BatchInputs(arguments: arguments, lists: [], formatExtension: formatExtension, objectListings: objectListings)
        } catch let error as BatchInputs.ListingError {
            printError("thumbs: \(error.message)")
            throw ExitCode.validationFailure
        }
        var items: [BatchItem] = []
        for entry in listed.entries {
            do {
                let input = try InputOptions.remoteInput(entry.input, options: fetchOptions) ?? FileInput(path: entry.input)
                items.append(BatchItem(input: input, output: entry.output))
            } catch {
                printError(errorMessage(error, about: entry.input))
                throw ExitCode.validationFailure
            }
        }
        let destination: any BatchDestination
        if S3Location.isS3(output) {
            guard let prefix = ObjectStoreDestination(prefix: output, store: S3ObjectStore()) else {
                printError("thumbs: \(output): not an s3://bucket/prefix/ url")
                throw ExitCode.validationFailure
            }
            destination = prefix
        } else {
            let directory = URL(fileURLWithPath: output, isDirectory: true)
            do {  // an output directory that cannot be made is one error, before any movie is read
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                printError("thumbs: \(output): \(fileFailureReason(error))")
                throw ExitCode.ioError
            }
            destination = DirectoryDestination(directory: directory)
        }
        var options = ThumbnailBatch.Options()
        options.time = picture.requestedTime
        options.thumbnail = try picture.thumbnailOptions(format: picture.imageFormat(named: formatName))
        options.remakesAll = force
        if let jobs { options.moviesAtOnce = jobs }
        if storyboard { options.companion = StoryboardCompanion() }
        let reportFile = try report.map { try BatchReport(path: $0, outputDirectory: output) }
        let interruption = Interruption()
        let results = ThumbnailBatch(items: items, destination: destination, options: options).results()
        interruption.onSignal { results.cancel() }
        let line = ProgressLine.onTerminal()
        defer {
            line?.end()
            interruption.end()
        }
        var last = BatchProgress(total: items.count)
        var reportFailure: (any Error)?
        for await result in results {
            last = result.progress
            if case .failed(let error) = result.outcome {
                let message = errorMessage(error, about: result.item.input.name)
                if let line { line.interrupt(with: message) } else { printError(message) }
            }
            do {
                if reportFailure == nil { try reportFile?.write(result) }
            } catch {  // stop, and wait for the movies under way to be whole before saying so
                reportFailure = error
                results.cancel()
            }
            line?.show(Self.progressText(result.progress), isLast: result.progress.done == result.progress.total)
        }
        line?.end()
        try reportFile?.close()
        if let reportFailure { throw reportFailure }
        let summary = "\(last.made) made, \(last.skipped) skipped, \(last.failed) failed of \(last.total)"
        if let signal = interruption.signalReceived, last.done < last.total {
            printError("thumbs: stopped: \(summary); \(last.total - last.done) not done")
            throw ExitCode(128 + signal)
        }
        if last.failed > 0 {
            printError("thumbs: \(summary)")
            throw ExitCode.failure
        }
        print(summary)
    }

    /// done/total, the pace, the time left and the failures so far.
    static func progressText(_ progress: BatchProgress) -> String {
        var text = String(format: "%d/%d  %.1f/s", progress.done, progress.total, progress.rate)
        if let remaining = progress.estimatedRemaining, progress.done < progress.total {
            let seconds = Int(remaining.seconds.rounded())
            text += String(format: "  ETA %d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        if progress.failed > 0 { text += "  \(progress.failed) failed" }
        return text
    }

    /// The keys under each `s3://bucket/prefix/` argument (`ListObjectsV2`, every page), relative to the prefix,
    /// signed with the AWS tools' environment (the `--header`s are the movies' origins', not the store's).
    /// - Throws: `BatchInputs.ListingError` when a prefix cannot be listed.
    static func objectListings(of arguments: [String]) async throws -> [String: [String]] {
        var listings: [String: [String]] = [:]
        let store = S3ObjectStore()
        for argument in arguments where BatchInputs.isObjectPrefix(argument) && listings[argument] == nil {
            guard let folder = ObjectStoreDestination(prefix: argument, store: store) else {
                throw BatchInputs.ListingError(message: "\(argument): not an s3://bucket/prefix/ url")
            }
            do {
                listings[argument] = try await store.list(bucket: folder.bucket, prefix: folder.prefix)
                    .map { String($0.key.dropFirst(folder.prefix.count)) }
            } catch {
                throw BatchInputs.ListingError(message: "\(argument): cannot be listed: \(error)")
            }
        }
        return listings
    }
}
