import ArgumentParser
import Foundation
import MP4Box
import Thumbs

/// `thumbs info`: the tracks of a movie and what it cost to learn them.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a movie's tracks: codec, sizes, orientation, duration, samples, and the bytes read to learn them."
    )

    @OptionGroup var source: InputOptions

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        try await source.withOpenedSource { input in
            let summary = MovieSummary(try await source.locator().locate(in: input))
            if json {
                print(String(decoding: try summary.json(), as: UTF8.self))
            } else {
                print(summary.text)
            }
            await source.printStats(of: input)
        }
    }
}
