import Foundation

/// `Fixtures/streams/expectations.json`'s references: ffmpeg's pictures of keyframes of the real streams in
/// `Fixtures/streams` (its make-expectations.py), each in `Fixtures/streams/references/<name>.png`.
public enum StreamReferences {
    /// One picture: of `source` at `seconds`, which ffmpeg showed at `ffmpegTime`, `offset` seconds from the
    /// stream's start, of `size` (width, height).
    public struct Reference: Decodable, Sendable {
        public var name: String
        public var source: String
        public var seconds: Double
        public var ffmpegTime: String
        public var offset: Double
        public var size: [Int]
    }

    private struct Expectations: Decodable {
        var references: [Reference]
    }

    /// The folder of the streams.
    public static let folder = Fixtures.directory.appendingPathComponent("streams")

    /// Every reference, in the file's order; a file that cannot be read stops the tests that use it.
    public static let all: [Reference] = FixtureJSON.decode(Expectations.self, at: folder.appendingPathComponent("expectations.json"))
        .references
}
