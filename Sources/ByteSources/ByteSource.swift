/// Random access to the bytes of a file, local or remote.
///
/// The parser asks a source for byte ranges; it never assumes it holds the
/// whole file. Reads are async so that a remote source can fetch them.
public protocol ByteSource: Sendable {
    /// The total length in bytes, if known now without a read.
    var knownLength: UInt64? { get async }

    /// Reads the bytes of `range`, clamped to the end of the source.
    ///
    /// Returns fewer bytes than asked only when the range passes the end of the
    /// source (so an empty result means `range` starts at or past the end).
    /// - Throws: whatever the source's transport throws (`ReadError` for files).
    func read(_ range: Range<UInt64>) async throws -> [UInt8]

    /// Reads the last `count` bytes (fewer if the source is shorter), without knowing the length first.
    ///
    /// Returns the bytes and the file offset of the first of them.
    /// - Throws: `ReadError` `suffixNeedsLength` when the source cannot read a suffix without its length.
    func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64)

    /// Reads the first `head` bytes and the last `tail` bytes in one go, without knowing the length first: one
    /// request where the transport can ask for both (HTTP's multiple ranges), else two reads. A source no longer than
    /// `head + tail` comes back whole, as the head.
    /// - Throws: whatever the source's reads throw.
    func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds

    /// Reads each of `ranges` (each clamped to the end of the source, as `read(_:)` does), in their order: in one
    /// request where the transport can ask for several ranges at once (HTTP's `multipart/byteranges`), else as
    /// reads side by side.
    /// - Throws: whatever the source's reads throw.
    func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]]

    /// Reads `range` from its first byte (clamped to the end of the source, as `read(_:)` does), in one request where
    /// the source is remote, handing the bytes to `consume` in order as they arrive, and stops as soon as `consume`
    /// returns true: the reader has what it needs, and the rest is never read. Also stops where the range or the
    /// source ends. For a stream without an index, read until what it holds is whole (an MPEG-TS segment).
    /// Returns the number of bytes handed over.
    /// - Throws: whatever the source's reads throw, and what `consume` throws, as it threw it.
    func read(_ range: Range<UInt64>, until consume: @Sendable (ArraySlice<UInt8>) throws -> Bool) async throws -> UInt64

    /// Byte ranges at most this far apart are cheaper to read as one (0 for local files: merge only touching ranges).
    var coalescingGap: UInt64 { get }

    /// What identifies the version of the bytes read (a file's device, inode, size and modification time; a
    /// server's validator once a response gave it), or nil when the source cannot tell. Whatever was learnt from
    /// one version (an index, a picture) must not be used with another.
    var version: String? { get async }

    /// The path or URL the bytes come from, for messages; nil for sources without one.
    var inputName: String? { get }

    /// What reading has cost so far, counted where the bytes arrive (for HTTP, every body byte received, also those
    /// read and thrown away); nil when the source does not count (`CountingByteSource` counts for it). A source that
    /// counts records each request with `FetchMeter.begin(in:)` as well, so the work that reads sees its own cost.
    var statistics: FetchStats? { get async }
}

extension ByteSource {
    /// Local sources merge only touching ranges.
    public var coalescingGap: UInt64 { 0 }

    /// Sources that cannot tell versions apart.
    public var version: String? { get async { nil } }

    /// Sources without a path or URL.
    public var inputName: String? { nil }

    /// Sources that do not count what they read.
    public var statistics: FetchStats? { get async { nil } }

    /// The default suffix read: needs `knownLength`.
    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        guard let length = await knownLength else {
            throw ReadError(.suffixNeedsLength, input: inputName, "source cannot read a suffix without knowing its length")
        }
        let start = length - min(length, count)
        return (try await read(start..<length), start)
    }
}
