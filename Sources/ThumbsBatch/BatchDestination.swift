import Foundation

/// Where a `ThumbnailBatch` puts its outputs, and what it remembers of each so that a later batch skips what is
/// current: a local directory with its ledger (`DirectoryDestination`), an object store's prefix whose objects carry
/// their record as metadata (the command line's, for `thumbs batch -o s3://bucket/prefix/`), or your own.
///
/// The batch writes a movie's companion folder before its thumbnail, and the thumbnail with its record: a thumbnail
/// whose record says current was made whole, with its companion.
public protocol BatchDestination: Sendable {
    /// The record of `output` (with its companion folder, when the batch makes one) as the last batch left it; nil
    /// when there is none, or the outputs are not all there.
    /// - Throws: what looking throws (a store that cannot be reached): the movie fails, as it would writing there.
    func record(of output: String, companionFolder: String?) async throws -> BatchRecord?

    /// Forgets `output`'s record before its outputs are replaced: a batch stopped before `write` does not skip it.
    /// - Throws: what forgetting it throws.
    func void(_ output: String) async throws

    /// Fills a new local folder with `fill`, then puts what it holds at `folder` (relative to the destination) in place
    /// of what was there.
    /// - Throws: what `fill` throws, or what writing throws.
    func writeFolder(_ folder: String, _ fill: (URL) async throws -> Void) async throws

    /// Writes `bytes` as `output` (relative to the destination), of media type `contentType`, with its `record` (nil:
    /// the input could not tell its version, and the output is made again next time).
    /// - Throws: what writing throws.
    func write(_ bytes: [UInt8], to output: String, contentType: String, record: BatchRecord?) async throws
}

/// What a batch remembers of one output: the input it was made from (its name, and a digest of its identity:
/// credentials and other headers are not kept), that input's version (a file's size and modification time, a URL's
/// ETag or Last-Modified) and the options' key.
public struct BatchRecord: Sendable, Equatable, Codable {
    public var input: String
    public var identity: String
    public var version: String
    public var key: String

    /// A record.
    public init(input: String, identity: String, version: String, key: String) {
        self.input = input
        self.identity = identity
        self.version = version
        self.key = key
    }
}
