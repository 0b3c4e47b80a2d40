import ByteSources
import MP4Box

extension MovieSession {
    /// Runs `body` on a session of `input`'s movie, using and filling `indexes`: the one way to read a movie whose
    /// index may be kept (the command line's `--cache-dir`, every route of the service).
    ///
    /// A kept index of the input's current version is used without a read, one read again when the bytes changed
    /// under it, and one read here kept once `body` succeeds, with the fragments `body` read (so is a kept one that
    /// `body` read more fragments of), as `KeptIndexReading` says; `revalidates` reads one byte first where the input
    /// cannot tell its version without a read, so a replaced resource is noticed even when `body` reads nothing (a
    /// report of the movie, as `/info`).
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
        try await KeptIndexReading.run(
            of: input, indexes: indexes, revalidates: revalidates, onStoreFailure: onStoreFailure,
            uses: { $0.movie != nil },
            open: { kept in
                MovieSession(source: try input.open(known: kept?.known), index: kept, sampleCacheBytes: sampleCacheBytes,
                             workLimits: workLimits, locator: locator)
            },
            revalidate: { session in _ = try await session.source.read(0..<1) },
            entryToKeep: { session, kept in await session.entryToKeep(replacing: kept) },
            body)
    }
}
