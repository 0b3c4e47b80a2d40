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

    @Test(arguments: ["h264-bframes", "h264-faststart", "fragmented", "audio-video", "hevc-8bit"])
    func aKeptIndexGivesTheMovieTheLocatorGave(_ name: String) async throws {
        let cache = try Self.directory()
        let located = try await Self.located(name)
        try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: name)
        let entry = try #require(cache.entry(for: name))
        #expect(entry.known == Self.version)
        #expect(entry.movie.tracks.map(\.samples.count) == located.movie.tracks.map(\.samples.count))
        #expect(entry.movie.moovOffset == located.movie.moovOffset)
        let track = try #require(entry.movie.primaryVideoTrack)
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
        try cache.store(indexBytes: bytes, fragmentsOnDemand: true, known: Self.version, for: "f")
        let movie = try #require(cache.entry(for: "f")).movie
        #expect(movie.readSubsegments == [2, 4])
        #expect(movie.fragmentIndex?.subsegments == located.movie.fragmentIndex?.subsegments)
        #expect(movie.primaryVideoTrack?.samples.count == read.movie.primaryVideoTrack?.samples.count)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheLimit() async throws {
        let located = try await Self.located("h264-bframes")
        let size = located.indexBytes.byteCount
        let cache = try Self.directory(maximumBytes: size * 2 + size / 2)  // room for two files with their headers
        for name in ["a", "b"] {
            try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: name)
            try await Task.sleep(for: .milliseconds(20))  // distinct modification times
        }
        _ = cache.entry(for: "a")  // used: now b is the least recently used
        try await Task.sleep(for: .milliseconds(20))
        try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: "c")
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.entry(for: "a") != nil && cache.entry(for: "c") != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(files.count == 2)
    }

    @Test func nothingIsKeptWithoutAVersionOrPastTheLimitAlone() async throws {
        let located = try await Self.located("h264-bframes")
        let cache = try Self.directory(maximumBytes: 100)
        try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: "big")
        #expect(cache.entry(for: "big") == nil)
        let roomy = try Self.directory()
        try roomy.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: KnownVersion(length: 5, version: nil),
                        for: "unversioned")
        #expect(roomy.entry(for: "unversioned") == nil)
    }

    @Test func aDamagedFileIsDroppedNotTrusted() async throws {
        let located = try await Self.located("h264-bframes")
        let cache = try Self.directory()
        try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: "x")
        let file = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes.removeLast(10)  // cut short
        try Data(bytes).write(to: file)
        #expect(cache.entry(for: "x") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // A file for another identity under this one's name (a hash collision) is not given out either.
        try cache.store(indexBytes: located.indexBytes, fragmentsOnDemand: false, known: Self.version, for: "y")
        let other = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        try FileManager.default.moveItem(at: other, to: file)
        #expect(cache.entry(for: "x") == nil)
    }
}
