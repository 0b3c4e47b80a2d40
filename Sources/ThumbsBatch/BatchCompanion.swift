import Foundation
import Thumbs

/// Something else a `ThumbnailBatch` makes of each movie, in a folder of its own beside the thumbnail: a storyboard
/// (`StoryboardCompanion`, `thumbs batch --storyboard`'s), or your own.
///
/// It is made from the media the thumbnail was made of (opened once: a movie's index is read once for both), within
/// the batch's bounds on decodes and fetches. The folder is filled under a temporary name and put in place once
/// `make(of:item:into:)` returns, so it is whole or absent.
public protocol BatchCompanion: Sendable {
    /// What the companion is made with (its options): part of what the batch remembers, so that a change makes it
    /// again.
    var key: String { get }

    /// The folder of `item`'s companion, relative to the batch's output directory.
    func folder(of item: BatchItem) -> String

    /// Makes the companion of `item`, whose movie or stream `media` reads, into `folder`, a new, empty folder.
    func make(of media: Media, item: BatchItem, into folder: URL) async throws
}
