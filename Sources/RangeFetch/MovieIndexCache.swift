import MP4Box

/// Remembers the parsed index of movies, keyed by URL and the caller's headers (or any other identity), with the
/// validator, length and version it was read at.
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
        /// The source's version the index was read at (`ByteSource.version`), if it could tell.
        public var version: String?

        /// Makes an entry.
        public init(movie: Movie, validator: Validator?, length: UInt64?, version: String? = nil) {
            self.movie = movie
            self.validator = validator
            self.length = length
            self.version = version
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

    /// The key of `url` fetched with `options`: requests whose headers differ do not share an index.
    public static func key(url: String, options: HTTPFetchOptions) -> String {
        let identity = options.responseIdentity
        return identity.isEmpty ? url : url + "\n" + identity
    }

    /// The entry for `key`, if remembered (and marks it recently used).
    public func entry(for key: String) -> Entry? {
        guard let entry = entries[key] else { return nil }
        touch(key)
        return entry
    }

    /// Remembers `entry` for `key`.
    public func store(_ entry: Entry, for key: String) {
        entries[key] = entry
        touch(key)
        while recency.count > capacity {
            let evicted = recency.removeFirst()
            entries[evicted] = nil
        }
    }

    /// Forgets `key` (after its file changed).
    public func invalidate(_ key: String) {
        entries[key] = nil
        recency.removeAll { $0 == key }
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
        let key = Self.key(url: url, options: options)
        if let entry = entry(for: key) {
            let source = try HTTPByteSource(url: url, options: options, client: client,
                                            knownLength: entry.length, validator: entry.validator)
            return (entry.movie, source, true)
        }
        let source = try HTTPByteSource(url: url, options: options, client: client)
        let located = try await locator.locate(in: source)
        store(Entry(movie: located.movie, validator: await source.validator, length: located.fileLength, version: await source.version),
              for: key)
        return (located.movie, source, false)
    }

    private func touch(_ key: String) {
        recency.removeAll { $0 == key }
        recency.append(key)
    }
}
