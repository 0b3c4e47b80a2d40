import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import RangeFetch
import Storyboards
import Thumbs

/// `thumbs storyboard`: sprite sheets, a WebVTT thumbnail track and a JSON manifest, from keyframes alone.
struct StoryboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storyboard",
        abstract: "Make scrubbing previews: sprite sheets (or single images) and the tracks players read (WebVTT, JSON, HLS, DASH), from keyframes alone."
    )

    @OptionGroup var source: InputOptions

    @Option(help: "Seconds between cues (default: about 50 cues under 15 minutes, 100 above, at least 1 s).")
    var interval: Double?

    @Option(help: "Tile size WxH (the picture is fitted on black when the aspect ratio differs).")
    var tile: String?

    @Option(help: "Tile width; the height follows the picture's aspect ratio (default 160).")
    var width: Int?

    @Option(help: "Tiles across a sheet.")
    var columns: Int = 10

    @Option(help: "Tile rows in a sheet.")
    var rows: Int = 10

    @Option(help: "Image format: jpeg, png, webp or avif.")
    var format: String = "jpeg"

    @Option(help: "JPEG, WebP or AVIF quality, 1-100.")
    var quality: Int = 75

    @Flag(name: .customLong("single-images"), help: "One image per cue instead of sprite sheets (cues without #xywh).")
    var singleImages = false

    @Option(name: .customLong("max-sheet-bytes"), help: "Start a new sheet before one would pass this many bytes.")
    var maxSheetBytes: Int?

    @Option(help: "Image file name template; $index$ is the sheet number (default storyboard-$index$.jpg or .png).")
    var template: String?

    @Option(help: "Keyframe reads in flight at once.")
    var fetches: Int = 4

    @Option(help: "Keyframes decoded at once (default: one per core).")
    var decodes: Int?

    @OptionGroup var transform: TransformOption

    @Option(help: "Which tracks to write, comma-separated: vtt (storyboard.vtt), json (storyboard.json), hls (storyboard.m3u8), dash (storyboard.mpd), bif (storyboard.bif, Roku).")
    var manifests: String = "vtt,json"

    @Option(name: .shortAndLong, help: "The directory to write into (made when missing), or an s3://bucket/prefix/ to put each file under.")
    var output: String

    /// The tracks `--manifests` names, each with the file it is written to.
    private var parsedManifests: [String] {
        manifests.lowercased().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    func validate() throws {
        if tile != nil && width != nil { throw ValidationError("give --tile or --width, not both") }
        if tile != nil, parsedTile == nil { throw ValidationError("--tile takes WxH, like 160x90") }
        if imageFormat == nil { throw ValidationError("--format takes jpeg, png, webp or avif") }
        if template?.contains("/") == true { throw ValidationError("--template is a file name, without '/'") }
        let known = Storyboard.trackFileKinds
        if parsedManifests.isEmpty || parsedManifests.contains(where: { !known.contains($0) }) {
            throw ValidationError("--manifests takes a comma-separated list of vtt, json, hls, dash and bif")
        }
        if let interval, !Duration.holds(seconds: interval) {
            throw ValidationError("--interval must be a number of seconds, not \(interval)")
        }
        do {
            try options.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// --format with --quality; nil for a name that is not a format.
    private var imageFormat: ImageFormat? { ImageFormat(named: format, quality: quality) }

    private var parsedTile: (Int, Int)? {
        guard let tile else { return nil }
        let parts = tile.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }

    private var options: StoryboardOptions {
        var options = StoryboardOptions()
        options.interval = interval.map { .seconds($0) }
        if let (tileWidth, tileHeight) = parsedTile {
            options.tileWidth = tileWidth
            options.tileHeight = tileHeight
        } else if let width {
            options.tileWidth = width
        }
        options.columns = columns
        options.rows = rows
        options.format = imageFormat ?? .jpeg(quality: quality)
        options.singleImages = singleImages
        options.maximumSheetBytes = maxSheetBytes
        options.sheetTemplate = template
        options.maximumConcurrentFetches = fetches
        options.maximumConcurrentDecodes = decodes
        options.appliesPreferredTrackTransform = transform.appliesPreferredTrackTransform
        if parsedManifests.contains("bif") { options.bifFileName = "storyboard.bif" }
        return options
    }

    mutating func run() async throws {
        source.makesManyPictures()
        let started = ContinuousClock.now
        if S3Location.isS3(output) {
            // Made in a local folder, then each file put under the prefix.
            guard let prefix = ObjectStoreDestination(prefix: output, store: S3ObjectStore()) else {
                throw ValidationError("\(output): not an s3://bucket/prefix/ url")
            }
            let command = self
            try await prefix.withLocalFolder { local in
                try await command.make(into: local, started: started)
                try await command.source.reportingErrors(statisticsOf: { nil }) { try await prefix.upload(local, to: "") }
            }
            return
        }
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            printError("thumbs: \(output): \(fileFailureReason(error))")
            throw ExitCode.ioError
        }
        try await make(into: directory, started: started)
    }

    /// Makes the storyboard's sheets and tracks in `directory`, and prints what was made and its `--stats`.
    private func make(into directory: URL, started: ContinuousClock.Instant) async throws {
        let meter = FetchMeter()
        let (storyboard, media) = try await source.withMedia(sampleCacheBytes: 0, fragments: .all) { media in
            let line = ProgressLine.onTerminal()
            defer { line?.end() }
            let storyboard = try await meter.measure {
                try await StoryboardMaker(media: media, options: options).make(progress: line?.reporter) { name, bytes in
                    try writeOutput(bytes, to: directory.appendingPathComponent(name).path)
                }
            }
            return (storyboard, media)
        }
        let extra = try writeTracks(of: storyboard, into: directory, started: started)
        source.printStats(await media.statistics(measuredBy: meter), extra: extra)
    }

    /// Writes the tracks `--manifests` names, says what was written, and gives the `--stats` figures.
    private func writeTracks(of storyboard: Storyboard, into directory: URL,
                             started: ContinuousClock.Instant) throws -> [String: Double] {
        let written: [String]
        do {
            written = try storyboard.writeTracks(parsedManifests, into: directory)
        } catch {
            printError("thumbs: \(directory.path): \(fileFailureReason(error))")
            throw ExitCode.ioError
        }
        print("\(storyboard.cues.count) cues from \(storyboard.keyframeCount) keyframes in \(storyboard.sheets.count) "
              + "\(storyboard.singleImages ? "images" : "sheets") of \(storyboard.tileSize) tiles: "
              + written.joined(separator: ", "))
        let wall = (ContinuousClock.now - started).milliseconds
        var extra: [String: Double] = [:]
        extra["cues"] = Double(storyboard.cues.count)
        extra["keyframes"] = Double(storyboard.keyframeCount)
        extra["keyframeBytes"] = Double(storyboard.keyframeBytes)
        extra["sheets"] = Double(storyboard.sheets.count)
        extra["sheetBytes"] = Double(storyboard.sheets.reduce(0) { $0 + $1.byteCount })
        extra["tileWidth"] = Double(storyboard.tileSize.width)
        extra["tileHeight"] = Double(storyboard.tileSize.height)
        extra["wallMs"] = (wall * 100).rounded() / 100
        return extra
    }
}

