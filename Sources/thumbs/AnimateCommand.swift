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
        try await source.run(movie: { try await runMovie(started: started) }, stream: { try await runStream(started: started) })
    }

    /// A movie's preview (`AnimatedPreviewMaker`).
    private func runMovie(started: ContinuousClock.Instant) async throws {
        try await source.withOpenedSource { input in
            let preview = try await AnimatedPreviewMaker(source: input, options: options).make()
            try writeOutput(preview.encoded, to: output)
            await source.printStats(of: input, extra: figures(of: preview, started: started))
        }
    }

    /// An HLS playlist's or a DASH manifest's preview (`StreamAnimatedPreviewMaker`).
    private func runStream(started: ContinuousClock.Instant) async throws {
        let made = try await source.reportingErrors(statisticsOf: { nil }) {
            try await StreamAnimatedPreviewMaker(input: try source.movieInput(), options: options).make()
        }
        try await source.reportingErrors(statisticsOf: { nil }) { try writeOutput(made.preview.encoded, to: output) }
        source.printStats(made.fetchStatistics, extra: figures(of: made.preview, started: started).merging([
            "segments": Double(made.segments.count),
        ]) { $1 }, labels: [
            "rendition": made.renditions.map(\.summary).joined(separator: "; "),
            "segment": made.segments.first?.resource.description,
        ])
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
