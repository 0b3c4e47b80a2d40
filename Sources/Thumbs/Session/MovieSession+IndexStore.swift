import ByteSources
import MP4Box

extension MovieSession {
    /// Runs `body` on a session of `input`'s movie, using and filling `indexes`: the one way to read a movie whose
    /// index may be kept (the command line's `--cache-dir`, every route of the service).
    ///
    /// - A kept index of the input's current version (`MovieIndexStore.currentEntry(for:)`) is used without a read,
    ///   and the source is opened at that version (`MovieInput.open(known:)`: over HTTP every request carries
    ///   If-Range, so the first read of `body` notices a replaced resource). With `revalidates`, when the input
    ///   cannot tell its version without a read (a URL), one byte is read first, so a replaced resource is noticed
    ///   even when `body` reads nothing (a report of the movie, as `/info`).
    /// - Bytes that changed under the index (a `ByteSourceError` whose `isResourceChanged` is true, from that read
    ///   or from `body`'s: a kept index of an older version, or a file replaced between this session's reads) make
    ///   the index forgotten and `body` run once more, on a session that reads the index again; a second change
    ///   is thrown.
    /// - An index read here is kept once `body` succeeds, with the fragments `body` read; so is a kept one that
    ///   `body` read more fragments of. A store that cannot keep it (a full disk) tells `onStoreFailure`, and the
    ///   result stands.
    ///
    /// `body` is given each session it runs on (a second after a change), so it can report what each read.
    /// - Throws: what opening the input, locating the movie or `body` throws; `CancellationError`.
    public static func withSession<Result>(
        of input: any MovieInput, indexes: (any MovieIndexStore)?,
        sampleCacheBytes: Int = ThumbnailLimits().sampleCacheBytes, workLimits: ThumbnailWorkLimits? = nil,
        locator: MovieLocator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand)),
        revalidates: Bool = false, onStoreFailure: (any Error) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation, _ body: (MovieSession) async throws -> Result
    ) async throws -> Result {
        var kept = await indexes?.currentEntry(for: input)
        var changed = false
        while true {
            let session = MovieSession(source: try input.open(known: kept?.known), index: kept,
                                       sampleCacheBytes: sampleCacheBytes, workLimits: workLimits, locator: locator)
            do {
                if revalidates, kept != nil, await input.currentVersion() == nil {
                    _ = try await session.source.read(0..<1)
                }
                let result = try await body(session)
                if let indexes, let entry = await session.entryToKeep(replacing: kept) {
                    do {
                        try await indexes.store(entry, for: input.identity)
                    } catch {
                        onStoreFailure(error)
                    }
                }
                return result
            } catch let error as any ByteSourceError where error.isResourceChanged && !changed {
                if let kept { await indexes?.remove(input.identity, ifKnown: kept.known) }
                kept = nil
                changed = true
            }
        }
    }
}
