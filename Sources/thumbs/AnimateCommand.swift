import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import Thumbs

/// `thumbs animate`: a short animated WebP of a span of the movie, for hover previews.
struct AnimateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Make an animated WebP preview of up to 10 s of the movie or HLS or DASH stream (keyframes, and the frames between them only when the frame rate asks for them)."
    )

    @OptionGroup var source: InputOptions

    @Option(help: "Where the preview starts, in seconds.")
    var start: Double = 0

    @Option(help: "Where it ends, in seconds (default: 5 s after the start; at most 10 s after it).")
    var end: Double?

    @Option(help: "Frames a second, at most 30.")
    var fps: Double = 15

    @Option(help: "Width in pixels; the height follows the picture (a smaller video is not enlarged).")
    var width: Int = 320

    @Option(help: "Lossy WebP quality, 0-100.")
    var quality: Int = 75

    @Flag(help: "Lossless WebP frames.")
    var lossless = false

    @OptionGroup var transform: TransformOption

    @Option(name: .shortAndLong, help: "Where to write the animated WebP, or - for standard output.")
    var output: String

    private var options: AnimatedPreviewOptions {
        var options = AnimatedPreviewOptions()
        options.start = .seconds(start)
        options.end = end.map { .seconds($0) }
        options.framesPerSecond = fps
        options.width = width
        options.quality = quality
        options.lossless = lossless
        options.appliesPreferredTrackTransform = transform.appliesPreferredTrackTransform
        return options
    }

    func validate() throws {
        for (name, seconds) in [("--start", start), ("--end", end ?? 0)] where !Duration.holds(seconds: seconds) {
            throw ValidationError("\(name) must be a number of seconds, not \(seconds)")
        }
        do {
            try options.validate()
        } catch {
            throw ValidationError(error.detail)
        }
    }

    mutating func run() async throws {
        source.makesManyPictures()
        let started = ContinuousClock.now
        let meter = FetchMeter()
        let (preview, media) = try await source.withMedia(sampleCacheBytes: 0, fragments: .all) { media in
            (try await meter.measure { try await AnimatedPreviewMaker(media: media, options: options).make() }, media)
        }
        try await source.reportingErrors(statisticsOf: { nil }) { try writeOutput(preview.encoded, to: output) }
        var extra = figures(of: preview, started: started)
        var labels: [String: String?] = [:]
        if !preview.streamSegments.isEmpty {
            extra["segments"] = Double(preview.streamSegments.count)
            labels["rendition"] = preview.streamRenditions.map(\.summary).joined(separator: "; ")
            labels["segment"] = preview.streamSegments.first?.resource.description
        }
        source.printStats(await media.statistics(measuredBy: meter), extra: extra, labels: labels)
    }

    /// The `--stats` figures of `preview`.
    private func figures(of preview: AnimatedPreview, started: ContinuousClock.Instant) -> [String: Double] {
        [
            "frames": Double(preview.frames.count), "keyframeFrames": Double(preview.frames.filter(\.isSyncSample).count),
            "samplesFetched": Double(preview.samplesFetched), "samplesDecoded": Double(preview.samplesDecoded),
            "width": Double(preview.width), "height": Double(preview.height),
            "durationMs": preview.duration.milliseconds,
            "wallMs": ((ContinuousClock.now - started).milliseconds * 100).rounded() / 100,
        ]
    }
}
