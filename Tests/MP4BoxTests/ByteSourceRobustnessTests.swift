import MP4Box
import MP4BoxTestSupport
import Testing

/// The same movie whatever the read boundaries, failures or missing length.
@Suite struct ByteSourceRobustnessTests {
    /// A fingerprint of everything a movie's video track says, to compare parses.
    static func fingerprint(_ movie: Movie) throws -> [String] {
        var lines = ["tracks \(movie.tracks.count) fragmented \(movie.isFragmented) moov \(movie.moovOffset)"]
        for track in movie.tracks {
            lines.append("track \(track.id) \(track.kind) \(track.sampleEntryType?.description ?? "-") \(track.samples.count) \(track.durationSeconds)")
            for index in 0..<track.samples.count {
                let sample = try track.samples.sample(at: index)
                lines.append("\(sample.offset) \(sample.size) \(sample.decodeTime) \(sample.compositionOffset) \(sample.isSync)")
            }
        }
        return lines
    }

    @Test(arguments: Fixtures.names)
    func splitReadsGiveTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let reference = try Self.fingerprint(try await MovieLocator().locate(in: file).movie)
        for pieceSize: UInt64 in [1, 7, 4096] {
            let movie = try await MovieLocator().locate(in: SplittingByteSource(file, pieceSize: pieceSize)).movie
            #expect(try Self.fingerprint(movie) == reference, "\(name) split into \(pieceSize)-byte pieces")
        }
    }

    @Test(arguments: Fixtures.names)
    func everyHeadSizeAcrossBoxBoundariesGivesTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let first = try await MovieLocator().locate(in: file)
        let reference = try Self.fingerprint(first.movie)
        // Head sizes that end just before, at and after every top-level box boundary, and inside every header.
        var sizes = Set<Int>([1, 8, 9, 16, 31, 32, 33])
        for header in first.topLevelBoxes {
            for delta in -9...9 { sizes.insert(Int(header.offset) + delta) }
            if let end = header.endOffset { for delta in -1...1 { sizes.insert(Int(end) + delta) } }
        }
        for size in sizes.sorted() where size > 0 {
            var options = MovieLocator.Options()
            options.headSize = size
            let movie = try await MovieLocator(options: options).locate(in: file).movie
            #expect(try Self.fingerprint(movie) == reference, "\(name) head size \(size)")
        }
    }

    @Test(arguments: Fixtures.names)
    func hiddenLengthGivesTheSameMovie(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        let reference = try Self.fingerprint(try await MovieLocator().locate(in: file).movie)
        for headSize in [64 * 1024, 1000, 100] {
            var options = MovieLocator.Options()
            options.headSize = headSize
            let movie = try await MovieLocator(options: options).locate(in: LengthHidingByteSource(file)).movie
            #expect(try Self.fingerprint(movie) == reference, "\(name) without length, head \(headSize)")
        }
    }

    @Test(arguments: Fixtures.names)
    func failedReadThrowsItsErrorThenARetrySucceeds(_ name: String) async throws {
        let file = try FileByteSource(path: Fixtures.path(name))
        var options = MovieLocator.Options()
        options.headSize = 4096  // several reads per fixture
        let clean = try await MovieLocator(options: options).locate(in: file)
        let reference = try Self.fingerprint(clean.movie)
        for failing in 1...clean.reads.count {
            let source = FailingByteSource(file, failingRead: failing)
            await #expect(throws: InjectedFault(readNumber: failing)) {
                _ = try await MovieLocator(options: options).locate(in: source)
            }
            let retried = try await MovieLocator(options: options).locate(in: source)
            #expect(try Self.fingerprint(retried.movie) == reference, "\(name) retry after failing read \(failing)")
        }
    }

    @Test(arguments: Fixtures.names)
    func inMemoryParseMatchesTheLocator(_ name: String) async throws {
        let bytes = try Fixtures.bytes(name)
        let located = try await MovieLocator().locate(in: MemoryByteSource(bytes)).movie
        let parsed = try MovieParser.parse(fileBytes: bytes)
        #expect(try Self.fingerprint(parsed) == Self.fingerprint(located))
    }
}
