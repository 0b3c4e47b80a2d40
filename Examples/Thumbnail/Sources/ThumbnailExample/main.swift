import Foundation
import Thumbs

// A thumbnail of a local movie: `ThumbnailExample movie.mp4` writes thumb.png.
let path = CommandLine.arguments.dropFirst().first ?? "movie.mp4"
var options = ThumbnailOptions()
options.maximumSize = PixelSize(width: 320, height: 320)    // fit inside, never upscaled
do {
    let generator = try ThumbnailGenerator(path: path, options: options)
    let thumbnail = try await generator.image(at: .seconds(12.5))    // the keyframe nearest 12.5 s (or the last)
    try Data(thumbnail.encoded).write(to: URL(fileURLWithPath: "thumb.png"))
    print("\(thumbnail.image.width)x\(thumbnail.image.height) at \(thumbnail.actualTime) s")
} catch let error as ReadError {      // no such file, or it cannot be read
    print("cannot read: \(error)")
} catch let error as MP4Error {       // not a movie, or a damaged one: the box path and offset
    print("not a movie we can read: \(error)")
} catch let error as ThumbnailError {  // a movie without video, a time it cannot show, ...
    print("no thumbnail: \(error)")
}
