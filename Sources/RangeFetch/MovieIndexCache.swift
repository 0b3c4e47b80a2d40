import MP4Box

/// Remembers the parsed index of remote movies, keyed by URL, with the validator and length it was read at.
///
/// A second thumbnail of a cached URL costs no index bytes: the source it
/// hands out already knows the length and validator, so its first request is
/// the keyframe, sent with If-Range. If the file changed, that request fails
/// with `resourceChanged` and `open` starts over after `invalidate`.
public actor MovieIndexCache {
    /// One remembered index.
    public struct Entry: Sendable {
        /// The parsed movie.
        public var movie: Movie
        /// The validator the index was read at.
        public var validator: Validator?
        /// The file length the index was read at.
        public var length: UInt64?

        /// Makes an entry.
        public init(movie: Movie, validator: Validator?, length: UInt64?) {
            self.movie = movie
            self.validator = validator
            self.length = length
        }
    }

    private var entries: [String: Entry] = [:]
    private var recency: [String] = []
    /// Most URLs remembered; the least recently used goes first.
    public let capacity: Int

    /// A cache of at most `capacity` movies.
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The entry for `url`, if remembered (and marks it recently used).
    public func entry(for url: String) -> Entry? {
        guard let entry = entries[url] else { return nil }
        touch(url)
        return entry
    }

    /// Remembers `entry` for `url`.
    public func store(_ entry: Entry, for url: String) {
        entries[url] = entry
        touch(url)
        while recency.count > capacity {
            let evicted = recency.removeFirst()
            entries[evicted] = nil
        }
    }

    /// Forgets `url` (after its file changed).
    public func invalidate(_ url: String) {
        entries[url] = nil
        recency.removeAll { $0 == url }
    }

    /// Forgets every movie.
    public func removeAll() {
        entries.removeAll()
        recency.removeAll()
    }

    /// The number of movies remembered.
    public var count: Int { entries.count }

    /// The movie at `url` and a source to read its samples: from the cache when remembered (no request), else located.
    /// - Throws: `FetchError` or `MP4Error` from locating.
    public func open(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient = .shared,
                     locator: MovieLocator = MovieLocator()) async throws -> (movie: Movie, source: HTTPByteSource, cached: Bool) {
        if let entry = entry(for: url) {
            let source = try HTTPByteSource(url: url, options: options, client: client,
                                            knownLength: entry.length, validator: entry.validator)
            return (entry.movie, source, true)
        }
        let source = try HTTPByteSource(url: url, options: options, client: client)
        let located = try await locator.locate(in: source)
        store(Entry(movie: located.movie, validator: await source.validator, length: located.fileLength), for: url)
        return (located.movie, source, false)
    }

    private func touch(_ url: String) {
        recency.removeAll { $0 == url }
        recency.append(url)
    }
}
