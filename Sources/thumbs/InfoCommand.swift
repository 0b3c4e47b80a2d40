import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import Thumbs

/// `thumbs info`: the tracks of a movie and what it cost to learn them.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a movie's tracks (codec, sizes, orientation, duration, samples) or an HLS or DASH stream's periods and renditions, and the bytes read to learn them."
    )

    @OptionGroup var source: InputOptions

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        try await source.run(movie: runMovie, stream: runStream)
    }

    /// A movie's tracks and index (`MovieSummary`).
    private func runMovie() async throws {
        try await source.withOpenedSource { input in
            let located = try await source.locator().locate(in: input)
            let summary = MovieSummary(located)
            print(json ? String(decoding: try summary.json(), as: UTF8.self) : summary.text)
            await source.printStats(of: input)
        }
    }

    /// An HLS playlist's or a DASH manifest's periods and renditions, every media playlist read (`StreamSummary`).
    private func runStream() async throws {
        let meter = FetchMeter()
        try await source.reportingErrors(statisticsOf: { nil }) {
            let summary = try await meter.measure { try await StreamSummary.read(StreamSession(input: try source.movieInput())) }
            print(json ? String(decoding: try summary.json(), as: UTF8.self) : summary.text)
            source.printStats(meter.statistics)
        }
    }
}
