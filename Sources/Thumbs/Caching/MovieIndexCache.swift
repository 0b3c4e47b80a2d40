import ByteSources
import MP4Box

/// Remembers the parsed index of movies, by input identity (`MovieInput.identity`), with the length and version
/// of the bytes it was read from.
///
/// A second thumbnail of a cached input costs no index bytes: the source `open(_:)` hands out starts from the
/// known version. Over HTTP its first request is the keyframe, sent with If-Range, and a file that changed makes
/// that request fail with an error whose `isResourceChanged` is true (`ByteSourceError`): `invalidate` and open
/// again. An input that can tell its version without a read (a local file) is checked on `open`.
public actor MovieIndexCache {
    /// One remembered index.
    public struct Entry: Sendable {
        /// The parsed movie.
        public var movie: Movie
        /// The length and version of the bytes the index was read from.
        public var known: KnownVersion

        /// Makes an entry.
        public init(movie: Movie, known: KnownVersion) {
            self.movie = movie
            self.known = known
        }
    }

    private var entries: [String: Entry] = [:]
    private var recency: [String] = []
    /// Most inputs remembered; the least recently used goes first.
    public let capacity: Int

    /// A cache of at most `capacity` movies.
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The entry for `identity`, if remembered (and marks it recently used).
    public func entry(for identity: String) -> Entry? {
        guard let entry = entries[identity] else { return nil }
        touch(identity)
        return entry
    }

    /// The entry for `input` if it is still the version the input has now (as far as it can tell without a read);
    /// an entry of another version is forgotten.
    public func currentEntry(for input: any MovieInput) async -> Entry? {
        guard let entry = entry(for: input.identity) else { return nil }
        if let now = await input.currentVersion(), now != entry.known.version {
            // Forgotten unless another entry took its place while the version was read.
            if self.entry(for: input.identity)?.known == entry.known { invalidate(input.identity) }
            return nil
        }
        return entry
    }

    /// Remembers `entry` for `identity`.
    public func store(_ entry: Entry, for identity: String) {
        entries[identity] = entry
        touch(identity)
        while recency.count > capacity {
            let evicted = recency.removeFirst()
            entries[evicted] = nil
        }
    }

    /// Forgets `identity` (after its bytes changed).
    public func invalidate(_ identity: String) {
        entries[identity] = nil
        recency.removeAll { $0 == identity }
    }

    /// Forgets every movie.
    public func removeAll() {
        entries.removeAll()
        recency.removeAll()
    }

    /// The number of movies remembered.
    public var count: Int { entries.count }

    /// The movie of `input` and a source to read its samples: from the cache when remembered (no read), else
    /// located and remembered.
    /// - Throws: `MP4Error` from locating, or whatever opening and reading the source throws.
    public func open(_ input: any MovieInput,
                     locator: MovieLocator = MovieLocator()) async throws -> (movie: Movie, source: any ByteSource, cached: Bool) {
        if let entry = await currentEntry(for: input) {
            return (entry.movie, try input.open(known: entry.known), true)
        }
        let source = try input.open(known: nil)
        let located = try await locator.locate(in: source)
        store(Entry(movie: located.movie, known: KnownVersion(length: located.fileLength, version: await source.version)),
              for: input.identity)
        return (located.movie, source, false)
    }

    private func touch(_ identity: String) {
        recency.removeAll { $0 == identity }
        recency.append(identity)
    }
}
