import ArgumentParser
import Foundation
import MP4Box

/// `thumbs info`: the tracks of a movie and what it cost to learn them.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a movie's tracks: codec, sizes, orientation, duration, samples, and the bytes read to learn them."
    )

    @Argument(help: "Path of an MP4 or QuickTime file.")
    var input: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if input.isEmpty { throw ValidationError("the input path is empty") }
    }

    func run() async throws {
        let located: MovieLocator.Result
        do {
            let source = try FileByteSource(path: input)
            located = try await MovieLocator().locate(in: source)
        } catch {
            printError("thumbs: \(input): \(error)")
            throw ExitCode.forError(error)
        }
        let summary = MovieSummary(located)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let data = try encoder.encode(summary)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(summary.text)
        }
    }
}
