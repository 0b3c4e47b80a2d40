import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import RangeFetch
import Thumbs
import ThumbsBatch

/// `thumbs thumbnail`: an upright, well-scaled thumbnail of one frame.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make a thumbnail: the keyframe nearest a time (or the exact frame), upright, fitted to a size, as PNG, JPEG or WebP, and its placeholder (ThumbHash)."
    )

    @OptionGroup var source: InputOptions

    @OptionGroup var picture: ThumbnailFlags

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

    @Option(name: .shortAndLong, help: "Where to write the image: a .png, .jpg, .webp or .avif file name (or another with --format), - for standard output, or an s3://bucket/key object (not made again while current, by its metadata).")
    var output: String?

    func validate() throws {
        guard let output else {
            if placeholder || placeholderImage != nil { return }
            throw ValidationError("give -o FILE (or - for standard output), --placeholder or --placeholder-image FILE")
        }
        if placeholder, output == "-" { throw ValidationError("--placeholder prints on standard output: give -o a file name") }
        if picture.format == nil, output != "-", !outputExtension.isEmpty, ImageFormat(named: outputExtension, quality: picture.quality) == nil {
            throw ValidationError("cannot write a .\(outputExtension) file: name it .png, .jpg, .webp or .avif, or give --format png, jpeg, webp or avif")
        }
        try picture.checkLossless(writtenAs: outputFormatName)
    }

    private var outputExtension: String { URL(fileURLWithPath: output ?? "").pathExtension.lowercased() }

    /// --format, else the output's extension; `png` for standard output or a name without an extension.
    private var outputFormatName: String { picture.format?.lowercased() ?? (output == "-" ? "png" : outputExtension) }

    /// The thumbnail options the flags ask for.
    private func thumbnailOptions() throws -> ThumbnailOptions {
        var options = try picture.thumbnailOptions(format: output == nil ? nil : picture.imageFormat(named: outputFormatName))
        options.makesPlaceholder = placeholder || placeholderImage != nil || source.stats
        return options
    }

    func run() async throws {
        let started = ContinuousClock.now
        let options = try thumbnailOptions()
        let time = picture.requestedTime
        let cache = source.isURL ? try openedCacheDirectory() : nil
        let originsFile = cache?.directory.appendingPathComponent(Self.originsFileName)
        if let originsFile { source.rangeSupport.learn(contentsOf: originsFile) }
        // An object output: skipped when its record says it is current (a HEAD and the input's first byte).
        let objectOutput = try await source.reportingErrors(statisticsOf: { nil }) { try objectDestination() }
        let record = try await source.reportingErrors(statisticsOf: { nil }) { () -> (item: BatchItem, key: String)? in
            guard let objectOutput else { return nil }
            var batchOptions = ThumbnailBatch.Options()
            batchOptions.time = time
            batchOptions.thumbnail = options
            return (BatchItem(input: try source.movieInput(), output: objectOutput.name), batchOptions.key)
        }
        if let objectOutput, let record,
           try await source.reportingErrors(statisticsOf: { nil }, {
               try await ThumbnailBatch.isCurrent(record.item, in: objectOutput.destination, key: record.key)
           }) {
            printError("thumbs: \(output ?? ""): current (made from this version of the input with these options), not made again")
            return
        }
        let meter = FetchMeter()
        let (thumbnail, media) = try await source.withMedia(indexes: cache, sampleCacheBytes: options.limits.sampleCacheBytes,
                                                            onStoreFailure: { error in
            printError("thumbs: warning: --cache-dir \(cache?.directory.path ?? ""): the index was not kept: \(fileFailureReason(error))")
        }) { media in
            (try await meter.measure { try await ThumbnailGenerator(media: media, options: options).image(at: time) }, media)
        }
        for warning in thumbnail.warnings { printError("thumbs: warning: \(source.input): \(warning)") }
        if let originsFile, let cache {
            do {
                try source.rangeSupport.write(to: originsFile)
            } catch {
                printError("thumbs: warning: --cache-dir \(cache.directory.path): what origins answer was not kept: \(fileFailureReason(error))")
            }
        }
        try await source.reportingErrors(statisticsOf: { nil }) {
            if let objectOutput, let record {
                try await objectOutput.destination.write(thumbnail.encoded, to: objectOutput.name,
                                                         contentType: options.format?.mediaType ?? "application/octet-stream",
                                                         record: ThumbnailBatch.record(of: record.item, thumbnail: thumbnail, key: record.key))
            }
            try write(thumbnail)
        }
        var extra = figures(of: thumbnail, started: started)
        var labels = ["placeholder": thumbnail.placeholder?.base64]
        if let position = thumbnail.streamPosition {
            extra["segmentNumber"] = Double(position.segment.number)
            extra["segmentStart"] = position.segment.timeRange.lowerBound.seconds
            labels["rendition"] = position.rendition.summary
            labels["segment"] = position.segment.resource.description
            labels["programDateTime"] = position.programDateTime?.description
        }
        source.printStats(await media.statistics(measuredBy: meter), extra: extra, labels: labels, candidates: thumbnail.candidates)
    }

    /// The object `-o s3://bucket/key` names, as its folder and its name in it; nil for a file or standard output.
    /// - Throws: `ValidationError` for an `s3://` URL whose key ends in `/`.
    private func objectDestination() throws -> (destination: ObjectStoreDestination, name: String)? {
        guard let output, S3Location.isS3(output) else { return nil }
        guard let name = ObjectStoreDestination.objectName(output),
              let destination = ObjectStoreDestination(objectURL: output, store: S3ObjectStore()) else {
            throw ValidationError("\(output): not an s3://bucket/key url of an object")
        }
        return (destination, name)
    }

    /// Writes the picture (to a file or standard output; an object's is written before) and the placeholder where the
    /// flags ask.
    private func write(_ thumbnail: Thumbnail) throws {
        if let output, !S3Location.isS3(output) { try writeOutput(thumbnail.encoded, to: output) }
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
