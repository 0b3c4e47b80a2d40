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
        let meter = FetchMeter()
        let (summary, media) = try await source.withMedia(sampleCacheBytes: 0, fragments: .all) { media in
            (try await meter.measure { try await MediaSummary.read(media, cost: .locating) }, media)
        }
        print(json ? String(decoding: try summary.json(), as: UTF8.self) : summary.text)
        source.printStats(await media.statistics(measuredBy: meter))
    }
}
