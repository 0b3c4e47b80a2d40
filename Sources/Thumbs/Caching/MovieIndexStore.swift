import ByteSources
import MP4Box

/// One kept index: a movie's (its moov, with the moofs read) or a Matroska file's (its Tracks and Cues, with the
/// Clusters searches found), the length and version of the bytes it was read from, and the index's bytes themselves
/// (what a store on disk keeps; empty when only the parsed index is at hand).
public struct MovieIndexEntry: Sendable {
    /// The parsed index.
    public enum Index: Sendable {
        /// An MP4 or QuickTime movie's.
        case movie(Movie)
        /// A Matroska or WebM file's.
        case matroska(MatroskaIndex)
    }

    /// The parsed index.
    public var index: Index
    /// The length and version of the bytes the index was read from.
    public var known: KnownVersion
    /// The index's bytes (`MovieSession.indexBytes`, with the moofs read on demand; a Matroska file's
    /// `MatroskaLocator.Result.heldBytes`).
    public var indexBytes: HeldBytes
    /// Whether the boxes were read by a locator that reads a fragmented movie's moofs on demand (so the movie made
    /// from them again reads the rest on demand too).
    public var fragmentsOnDemand: Bool

    /// Makes a movie's entry.
    public init(movie: Movie, known: KnownVersion, indexBytes: HeldBytes = HeldBytes(), fragmentsOnDemand: Bool = false) {
        index = .movie(movie)
        self.known = known
        self.indexBytes = indexBytes
        self.fragmentsOnDemand = fragmentsOnDemand
    }

    /// Makes a Matroska file's entry.
    public init(matroska: MatroskaIndex, known: KnownVersion, indexBytes: HeldBytes = HeldBytes()) {
        index = .matroska(matroska)
        self.known = known
        self.indexBytes = indexBytes
        fragmentsOnDemand = false
    }

    /// The movie, when the entry is a movie's.
    public var movie: Movie? {
        if case .movie(let movie) = index { movie } else { nil }
    }

    /// The Matroska file's index, when the entry is one's.
    public var matroska: MatroskaIndex? {
        if case .matroska(let matroska) = index { matroska } else { nil }
    }
}

/// Where movie indexes are kept between pictures, by input identity (`MovieInput.identity`): in memory
/// (`MovieIndexCache`), on disk from one process to the next (`MovieIndexDirectory`), or your own.
///
/// `MovieSession.withSession(of:indexes:sampleCacheBytes:workLimits:locator:revalidates:onStoreFailure:isolation:_:)` is the one way the
/// command line and the service use a store: the kept index while it is of the input's current version, the bytes
/// read at that version, and the index read again when they changed.
public protocol MovieIndexStore: Sendable {
    /// The index kept for `identity`, if any.
    func entry(for identity: String) async -> MovieIndexEntry?
    /// Keeps `entry` for `identity` (a store may decline one, as a directory does one without a version).
    /// - Throws: what keeping it throws (writing a file).
    func store(_ entry: MovieIndexEntry, for identity: String) async throws
    /// Forgets the index kept for `identity` (after its bytes changed).
    func remove(_ identity: String) async
    /// Forgets the index kept for `identity` if it is still the one of version `known` (not one another piece of
    /// work kept meanwhile).
    func remove(_ identity: String, ifKnown known: KnownVersion) async
}

extension MovieIndexStore {
    /// The index kept for `input` if it is of the version the input has now, as far as the input can tell without
    /// a read (a local file's `stat`); one of another version is forgotten.
    public func currentEntry(for input: any MovieInput) async -> MovieIndexEntry? {
        guard let entry = await entry(for: input.identity) else { return nil }
        if let now = await input.currentVersion(), now != entry.known.version {
            await remove(input.identity, ifKnown: entry.known)
            return nil
        }
        return entry
    }
}
