import ByteSources
import Foundation
import Matroska
import MP4Box
import Synchronization

/// Movie indexes kept on disk from one process to the next (`thumbs thumbnail --cache-dir`): the index boxes a
/// session read (`MovieSession.indexBytes`; of a Matroska file, the bytes its index was located in and the Clusters
/// its searches found) and the version of the resource they are of, one file per input
/// identity, at most `maximumBytes` in all (the least recently used go first). Files are read and written on
/// threads of their own, not the tasks'.
///
/// A kept index is meant to be used with a source opened at its version (`MovieInput.open(known:)`), as
/// `MovieSession.withSession(of:indexes:sampleCacheBytes:workLimits:locator:revalidates:onStoreFailure:isolation:_:)` does: over HTTP
/// every request then carries If-Range, so a resource replaced since is refused (a `ByteSourceError` whose
/// `isResourceChanged` is true) rather than read at stale offsets, and the index is read again.
public struct MovieIndexDirectory: MovieIndexStore {
    /// Where the files are.
    public let directory: URL
    /// Most bytes the files take together.
    public let maximumBytes: Int
    /// The limits the kept boxes are parsed within.
    public let parseLimits: ParseLimits

    /// The directory at `path` (made when missing), holding at most `maximumBytes`, its indexes parsed within
    /// `parseLimits`.
    /// - Throws: what creating the directory throws.
    public init(path: String, maximumBytes: Int = 64 << 20, parseLimits: ParseLimits = ParseLimits()) throws {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        self.maximumBytes = max(0, maximumBytes)
        self.parseLimits = parseLimits
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The index kept for `identity`, marked as just used; nil when there is none, or when its file is not one this
    /// version wrote or no longer makes a movie (such a file is removed).
    public func entry(for identity: String) async -> MovieIndexEntry? {
        await BlockingCalls.run { readEntry(for: identity) }
    }

    private func readEntry(for identity: String) -> MovieIndexEntry? {
        let file = fileURL(for: identity)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= maximumBytes,
              let data = try? Data(contentsOf: file) else { return nil }
        guard let stored = IndexFile(data: data), stored.header.identity == identity, let entry = self.entry(of: stored) else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return entry
    }

    /// The entry a file holds: its index made again from its bytes (a movie's boxes parsed, a Matroska file's index
    /// located in them); nil when they no longer make one.
    private func entry(of stored: IndexFile) -> MovieIndexEntry? {
        let header = stored.header
        let known = KnownVersion(length: header.length, version: header.version)
        guard header.format == IndexFile.Header.matroska else {
            guard let movie = try? MovieParser.parse(indexBoxes: stored.indexBytes, fragmentsOnDemand: header.fragmentsOnDemand,
                                                     limits: parseLimits) else { return nil }
            return MovieIndexEntry(movie: movie, known: known, indexBytes: stored.indexBytes, fragmentsOnDemand: header.fragmentsOnDemand)
        }
        guard let located = try? MatroskaLocator().locate(in: stored.indexBytes, length: header.length) else { return nil }
        let learned = (header.clusters ?? []).map { MatroskaClusterSearch.Point(offset: $0.offset, time: $0.time) }
        return MovieIndexEntry(matroska: MatroskaIndex(located: located, learned: learned), known: known, indexBytes: stored.indexBytes)
    }

    /// Keeps `entry`'s index bytes (its movie is made again from them) for `identity`, then removes the least
    /// recently used files past `maximumBytes`. Nothing is kept without index bytes, without a version to check
    /// them by, or larger than `maximumBytes` alone.
    /// - Throws: what writing the file throws.
    public func store(_ entry: MovieIndexEntry, for identity: String) async throws {
        try await BlockingCalls.run { try write(entry, for: identity) }
    }

    private func write(_ entry: MovieIndexEntry, for identity: String) throws {
        let (indexBytes, known) = (entry.indexBytes, entry.known)
        guard !indexBytes.spans.isEmpty, known.version != nil else { return }
        var header = IndexFile.Header(identity: identity, length: known.length, version: known.version,
                                      fragmentsOnDemand: entry.fragmentsOnDemand,
                                      spans: indexBytes.spans.map { .init(offset: $0.offset, count: $0.bytes.count) })
        if let matroska = entry.matroska {
            header.format = IndexFile.Header.matroska
            header.clusters = matroska.clusters.map { .init(offset: $0.offset, time: $0.time) }
        }
        let data = IndexFile(header: header, indexBytes: indexBytes).data
        guard data.count <= maximumBytes else { return }
        let file = fileURL(for: identity)
        try Self.fileChanges.withLock { _ in try data.write(to: file, options: .atomic) }
        trim(keeping: file)
    }

    /// Forgets the index kept for `identity`.
    public func remove(_ identity: String) async {
        let file = fileURL(for: identity)
        await BlockingCalls.run { _ = try? FileManager.default.removeItem(at: file) }
    }

    /// Forgets the index kept for `identity` if its file is still of version `known` (not one another task of this
    /// process wrote meanwhile: the check and the removal hold the lock writes take; another process may still
    /// write between them). The file's header is compared, without making the movie again.
    public func remove(_ identity: String, ifKnown known: KnownVersion) async {
        let file = fileURL(for: identity)
        await BlockingCalls.run {
            Self.fileChanges.withLock { _ in removeFile(file, identity: identity, ifKnown: known) }
        }
    }

    /// Writes and version-checked removals of index files in this process, one at a time (reads need no lock: a
    /// file is replaced whole, by a rename).
    private static let fileChanges = Mutex(())

    private func removeFile(_ file: URL, identity: String, ifKnown known: KnownVersion) {
        guard let data = try? Data(contentsOf: file), let stored = IndexFile(data: data), stored.header.identity == identity,
              KnownVersion(length: stored.header.length, version: stored.header.version) == known else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Removes the least recently used index files until the rest fit in `maximumBytes` (`kept` last of all).
    private func trim(keeping kept: URL) {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var entries = files.filter { $0.pathExtension == Self.fileExtension }.compactMap { file -> (URL, Int, Date)? in
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        entries.sort { ($0.0.lastPathComponent == kept.lastPathComponent ? 1 : 0, $0.2) < ($1.0.lastPathComponent == kept.lastPathComponent ? 1 : 0, $1.2) }
        var total = entries.reduce(0) { $0 + $1.1 }
        for (file, size, _) in entries where total > maximumBytes {
            try? FileManager.default.removeItem(at: file)
            total -= size
        }
    }

    /// The file for `identity`: a 64-bit FNV-1a hash of it names the file, and the identity inside tells hashes apart.
    private func fileURL(for identity: String) -> URL {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in identity.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return directory.appendingPathComponent(String(hash, radix: 16) + "." + Self.fileExtension)
    }

    static let fileExtension = "movieindex"
}

/// An index file: a magic line, the length of a JSON header (4 bytes, big-endian), the header, then the bytes of
/// each span the header lists, one after another.
private struct IndexFile {
    struct Header: Codable {
        struct Span: Codable {
            var offset: UInt64
            var count: Int
        }

        /// A Cluster a Matroska file's searches found.
        struct Cluster: Codable {
            var offset: UInt64
            var time: Int64
        }

        var identity: String
        var length: UInt64?
        var version: String?
        var fragmentsOnDemand: Bool
        var spans: [Span]
        /// What the bytes are the index of: `matroska`, or a movie's boxes when absent.
        var format: String?
        /// Of a Matroska file, the Clusters known.
        var clusters: [Cluster]?

        static let matroska = "matroska"
    }

    static let magic = Array("thumbs movie index 1\n".utf8)

    var header: Header
    var indexBytes: HeldBytes

    init(header: Header, indexBytes: HeldBytes) {
        self.header = header
        self.indexBytes = indexBytes
    }

    /// Reads a file's bytes; nil when they are not an index file whose spans fill it exactly.
    init?(data: Data) {
        let bytes = [UInt8](data)
        let start = Self.magic.count + 4
        guard bytes.count >= start, Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
        let headerLength = bytes[Self.magic.count..<start].reduce(0) { $0 << 8 | Int($1) }
        guard headerLength <= bytes.count - start,
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[start..<start + headerLength])) else { return nil }
        var position = start + headerLength
        var held = HeldBytes()
        for span in header.spans {
            guard span.count > 0, span.count <= bytes.count - position, span.offset <= .maximumFileOffset else { return nil }
            held.insert(Array(bytes[position..<position + span.count]), at: span.offset)
            position += span.count
        }
        guard position == bytes.count else { return nil }
        self.header = header
        indexBytes = held
    }

    var data: Data {
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var bytes = Self.magic
        bytes += withUnsafeBytes(of: UInt32(json.count).bigEndian) { Array($0) }
        bytes += json
        for span in indexBytes.spans { bytes += span.bytes }
        return Data(bytes)
    }
}
