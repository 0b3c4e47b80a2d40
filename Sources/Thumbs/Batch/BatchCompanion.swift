import Foundation

/// Something else a `ThumbnailBatch` makes of each movie, in a folder of its own beside the thumbnail: a storyboard
/// (the `thumbs batch --storyboard` command's, from `Storyboards`), or your own.
///
/// The folder is filled under a temporary name and put in place once `make` returns, so it is whole or absent.
public struct BatchCompanion: Sendable {
    /// What the companion is made with (its options): part of what the batch remembers, so that a change makes it
    /// again.
    public var key: String
    /// The folder of a movie's companion, relative to the batch's output directory.
    public var folder: @Sendable (BatchItem) -> String
    /// Makes the companion of a movie into a new, empty folder, reading through the batch's service (its index cache
    /// holds the movie's index once the thumbnail is made; its work limits bound the decodes and fetches).
    public var make: @Sendable (BatchItem, _ folder: URL, ThumbnailService) async throws -> Void

    /// Makes a companion.
    public init(key: String, folder: @escaping @Sendable (BatchItem) -> String,
                make: @escaping @Sendable (BatchItem, _ folder: URL, ThumbnailService) async throws -> Void) {
        self.key = key
        self.folder = folder
        self.make = make
    }
}
