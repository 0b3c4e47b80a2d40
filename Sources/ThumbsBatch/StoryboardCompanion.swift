import Foundation
import Storyboards
import Thumbs

/// A storyboard of each movie of a batch (`thumbs batch --storyboard`): sprite sheets and the tracks `tracks` names
/// (`Storyboard.writeTracks(_:into:)`), in `<thumbnail path without its extension>.storyboard/`.
public struct StoryboardCompanion: BatchCompanion {
    /// How the storyboard looks.
    public var options: StoryboardOptions
    /// The track files written beside the sheets (`vtt`, `json`, ...).
    public var tracks: [String]

    /// A companion of storyboards made with `options` (default: about 50 cues, 160 px tiles, JPEG sheets), with
    /// `tracks` written beside the sheets.
    public init(options: StoryboardOptions = StoryboardOptions(), tracks: [String] = ["vtt", "json"]) {
        self.options = options
        self.tracks = tracks
    }

    public var key: String {
        // The default options' storyboards were remembered by this key before it named options: kept, so that they
        // are not all made again.
        "storyboard;" + tracks.joined(separator: ",")
    }

    public func folder(of item: BatchItem) -> String {
        (item.output as NSString).deletingPathExtension + ".storyboard"
    }

    public func make(of media: Media, item: BatchItem, into folder: URL) async throws {
        let made = try await StoryboardMaker(media: media, options: options).make { name, bytes in
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        _ = try made.writeTracks(tracks, into: folder)
    }
}
