import ByteSources

/// The one loop that reads an input whose index may be kept in a `MovieIndexStore`, for a movie's session
/// (`MovieSession.withSession(of:indexes:sampleCacheBytes:workLimits:locator:revalidates:onStoreFailure:isolation:_:)`)
/// and a Matroska file's (`Media.withMedia(of:indexes:sampleCacheBytes:workLimits:locator:revalidates:onStoreFailure:isolation:_:)`):
/// - a kept index of the input's current version that the session `uses` is given to `open`, which opens the source at
///   that version (`MovieInput.open(known:)`: over HTTP every request carries If-Range, so the first read of `body`
///   notices a replaced resource); with `revalidates`, when the input cannot tell its version without a read (a URL),
///   `revalidate` reads one byte first, so a replaced resource is noticed even when `body` reads nothing;
/// - bytes that changed under the index (a `ByteSourceError` whose `isResourceChanged` is true) make the index
///   forgotten and `body` run once more, on a session that reads the index again; a second change is thrown;
/// - once `body` succeeds, what `entryToKeep` gives (an index read here, or the kept one with more read since) is
///   kept; a store that cannot keep it tells `onStoreFailure`, and the result stands.
enum KeptIndexReading {
    static func run<Session, Result>(
        of input: any MovieInput, indexes: (any MovieIndexStore)?, revalidates: Bool,
        onStoreFailure: (any Error) -> Void, isolation: isolated (any Actor)? = #isolation,
        uses: (MovieIndexEntry) -> Bool,
        open: (MovieIndexEntry?) throws -> Session,
        revalidate: (Session) async throws -> Void,
        entryToKeep: (Session, MovieIndexEntry?) async -> MovieIndexEntry?,
        _ body: (Session) async throws -> Result
    ) async throws -> Result {
        var kept = await indexes?.currentEntry(for: input).flatMap { uses($0) ? $0 : nil }
        var changed = false
        while true {
            let session = try open(kept)
            do {
                if revalidates, kept != nil, await input.currentVersion() == nil {
                    try await revalidate(session)
                }
                let result = try await body(session)
                if let indexes, let entry = await entryToKeep(session, kept) {
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
