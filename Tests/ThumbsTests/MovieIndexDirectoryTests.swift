import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Indexes kept on disk: made again into the same movie, bounded in size, and never one input's for another.
@Suite struct MovieIndexDirectoryTests {
    static func directory(maximumBytes: Int = 1 << 20) throws -> MovieIndexDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)").path
        return try MovieIndexDirectory(path: path, maximumBytes: maximumBytes)
    }

    static func located(_ name: String, _ reading: MovieLocator.FragmentReading = .all) async throws -> MovieLocator.Result {
        var options = MovieLocator.Options(fragmentReading: reading)
        options.headSize = 4096
        options.tailSize = 4096
        return try await MovieLocator(options: options).locate(in: FileByteSource(path: Fixtures.path(name)))
    }

    static let version = KnownVersion(length: 1, version: "\"v1\"")

    /// What a session keeps of `located`: its index bytes (or `indexBytes`) of version `known`.
    static func entry(_ located: MovieLocator.Result, indexBytes: HeldBytes? = nil, known: KnownVersion = version,
                      fragmentsOnDemand: Bool = false) -> MovieIndexEntry {
        MovieIndexEntry(movie: located.movie, known: known, indexBytes: indexBytes ?? located.indexBytes,
                        fragmentsOnDemand: fragmentsOnDemand)
    }

    @Test(arguments: ["h264-bframes", "h264-faststart", "fragmented", "audio-video", "hevc-8bit"])
    func aKeptIndexGivesTheMovieTheLocatorGave(_ name: String) async throws {
        let cache = try Self.directory()
        let located = try await Self.located(name)
        try await cache.store(Self.entry(located), for: name)
        let entry = try #require(await cache.entry(for: name))
        #expect(entry.known == Self.version)
        let movie = try #require(entry.movie)
        #expect(movie.tracks.map(\.samples.count) == located.movie.tracks.map(\.samples.count))
        #expect(movie.moovOffset == located.movie.moovOffset)
        let track = try #require(movie.primaryVideoTrack)
        let original = try #require(located.movie.primaryVideoTrack)
        for index in stride(from: 0, to: track.samples.count, by: 7) {
            #expect(try track.samples.sample(at: index).byteRange == original.samples.sample(at: index).byteRange)
        }
    }

    @Test func fragmentsReadOnDemandComeBackAsRead() async throws {
        let cache = try Self.directory()
        let located = try await Self.located("fragmented", .onDemand)
        #expect(located.movie.fragmentIndex != nil)
        let source = try FileByteSource(path: Fixtures.path("fragmented"))
        let read = try await MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand))
            .readingFragments([2, 4], of: located.movie, in: source)
        var bytes = located.indexBytes
        for span in read.indexBytes.spans { bytes.insert(span.bytes, at: span.offset) }
        try await cache.store(Self.entry(located, indexBytes: bytes, fragmentsOnDemand: true), for: "f")
        let movie = try #require(await cache.entry(for: "f")?.movie)
        #expect(movie.readSubsegments == [2, 4])
        #expect(movie.fragmentIndex?.subsegments == located.movie.fragmentIndex?.subsegments)
        #expect(movie.primaryVideoTrack?.samples.count == read.movie.primaryVideoTrack?.samples.count)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheLimit() async throws {
        let located = try await Self.located("h264-bframes")
        let size = located.indexBytes.byteCount
        let cache = try Self.directory(maximumBytes: size * 2 + size / 2)  // room for two files with their headers
        for name in ["a", "b"] {
            try await cache.store(Self.entry(located), for: name)
            try await Task.sleep(for: .milliseconds(20))  // distinct modification times
        }
        _ = await cache.entry(for: "a")  // used: now b is the least recently used
        try await Task.sleep(for: .milliseconds(20))
        try await cache.store(Self.entry(located), for: "c")
        #expect(await cache.entry(for: "b") == nil)
        #expect(await cache.entry(for: "a") != nil)
        #expect(await cache.entry(for: "c") != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(files.count == 2)
    }

    @Test func nothingIsKeptWithoutAVersionOrPastTheLimitAlone() async throws {
        let located = try await Self.located("h264-bframes")
        let cache = try Self.directory(maximumBytes: 100)
        try await cache.store(Self.entry(located), for: "big")
        #expect(await cache.entry(for: "big") == nil)
        let roomy = try Self.directory()
        try await roomy.store(Self.entry(located, known: KnownVersion(length: 5, version: nil)), for: "unversioned")
        #expect(await roomy.entry(for: "unversioned") == nil)
    }

    @Test func removingIfKnownLeavesAnIndexOfAnotherVersion() async throws {
        let located = try await Self.located("h264-bframes")
        let cache = try Self.directory()
        let newer = KnownVersion(length: 1, version: "\"v2\"")
        // Another process (another store on the same directory) kept the index of version 2 meanwhile.
        try await cache.store(Self.entry(located), for: "x")
        try await MovieIndexDirectory(path: cache.directory.path).store(Self.entry(located, known: newer), for: "x")
        await cache.remove("x", ifKnown: Self.version)
        #expect(await cache.entry(for: "x")?.known == newer)
        await cache.remove("x", ifKnown: newer)
        #expect(await cache.entry(for: "x") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
    }

    @Test func aDamagedFileIsDroppedNotTrusted() async throws {
        let located = try await Self.located("h264-bframes")
        let cache = try Self.directory()
        try await cache.store(Self.entry(located), for: "x")
        let file = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes.removeLast(10)  // cut short
        try Data(bytes).write(to: file)
        #expect(await cache.entry(for: "x") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // A file for another identity under this one's name (a hash collision) is not given out either.
        try await cache.store(Self.entry(located), for: "y")
        let other = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        try FileManager.default.moveItem(at: other, to: file)
        #expect(await cache.entry(for: "x") == nil)
    }
}
