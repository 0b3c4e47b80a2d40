import ByteSources
import MP4Box

/// Remembers the parsed index of movies in memory, by input identity (`MovieInput.identity`), with the length and
/// version of the bytes it was read from; at most `capacity` movies, the least recently used forgotten first.
public actor MovieIndexCache: MovieIndexStore {
    private var entries: [String: MovieIndexEntry] = [:]
    private var recency: [String] = []
    /// Most inputs remembered; the least recently used goes first.
    public let capacity: Int

    /// A cache of at most `capacity` movies.
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The entry for `identity`, if remembered (and marks it recently used). Only the parsed movie is kept, not
    /// its index bytes.
    public func entry(for identity: String) -> MovieIndexEntry? {
        guard let entry = entries[identity] else { return nil }
        touch(identity)
        return entry
    }

    /// Remembers `entry` (without its index bytes) for `identity`.
    public func store(_ entry: MovieIndexEntry, for identity: String) {
        var entry = entry
        entry.indexBytes = HeldBytes()
        entries[identity] = entry
        touch(identity)
        while recency.count > capacity {
            let evicted = recency.removeFirst()
            entries[evicted] = nil
        }
    }

    /// Forgets `identity` (after its bytes changed).
    public func remove(_ identity: String) {
        entries[identity] = nil
        recency.removeAll { $0 == identity }
    }

    /// Forgets `identity` if its entry is still of version `known`, in one step.
    public func remove(_ identity: String, ifKnown known: KnownVersion) {
        if entries[identity]?.known == known { remove(identity) }
    }

    /// Forgets every movie.
    public func removeAll() {
        entries.removeAll()
        recency.removeAll()
    }

    /// The number of movies remembered.
    public var count: Int { entries.count }

    private func touch(_ identity: String) {
        recency.removeAll { $0 == identity }
        recency.append(identity)
    }
}
