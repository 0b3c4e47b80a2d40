// The README's library example, compiled by `swift build` and run by the tests (ReadmeExampleTests) against a local
// server: the README quotes this file, so keep the two the same.
import Foundation
import RangeFetch    // for URLs (HTTPInput); local files need only Thumbs: ThumbnailGenerator(path:)
import Thumbs

@main
struct ReadmeExample {
    static func main() async throws {    // the library is async: main is `async throws`
        let url = CommandLine.arguments.dropFirst().first ?? "https://example.com/movie.mp4"
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 320, height: 320)    // fit inside, never upscaled
        do {
            let generator = try ThumbnailGenerator(input: HTTPInput(url: url), options: options)
            let thumbnail = try await generator.image(at: .seconds(12.5))  // nearest keyframe by default
            try Data(thumbnail.encoded).write(to: URL(fileURLWithPath: "thumb.png"))
            print(thumbnail.actualTime, thumbnail.bytesFetched, thumbnail.requests)
        } catch let error as MP4Error {          // not a movie, or a damaged one: the box path and offset
            print("not a movie we can read: \(error)")
        } catch let error as FetchError {        // the server: the URL, range and status
            print("could not fetch it: \(error)")
        }
    }
}
