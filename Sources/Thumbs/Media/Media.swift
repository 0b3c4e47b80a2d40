import ByteSources
import MP4Box

/// A presentation pictures are taken from: a movie (one segment: an MP4 or QuickTime file) or an HLS or DASH stream
/// (periods, renditions, segments on a timeline with gaps and a live edge). Every job takes one (`ThumbnailGenerator`
/// and the jobs built on it) and asks it the same questions; which it is is told once, by
/// `MovieInput.readingMedia(asMovie:asStream:)`, when it is opened (`withMedia(of:indexes:sampleCacheBytes:workLimits:
/// locator:revalidates:onStoreFailure:_:)`).
public enum Media: Sendable {
    /// A movie, read through its session (its index read once, its samples and decoders kept between pictures).
    case movie(MovieSession)
    /// A stream, read through its session (its playlists, init segments and segment readings kept).
    case stream(StreamSession)

    /// The path or URL the media is read from, for messages.
    public var inputName: String? {
        switch self {
        case .movie(let session): session.inputName
        case .stream(let session): session.input.name
        }
    }

    /// What reading has cost: of a movie, its source's own statistics (every request of its session, with the
    /// connections opened); of a stream, whose playlists and segments are read through sources of their own, what
    /// `meter` measured.
    public func statistics(measuredBy meter: FetchMeter) async -> FetchStats {
        switch self {
        case .movie(let session): await session.source.statistics ?? FetchStats()
        case .stream: meter.statistics
        }
    }

    /// The validator of the bytes read, for an entity tag: a movie's source's version; nil for a stream, whose
    /// answers are tagged by their bytes.
    public var validator: String? {
        get async {
            guard case .movie(let session) = self else { return nil }
            return await session.source.version
        }
    }

    /// Runs `body` on `input` opened as the media it holds, told by the one rule (`MovieInput.readingMedia(asMovie:
    /// asStream:)`): a movie through `MovieSession.withSession(of:indexes:sampleCacheBytes:workLimits:locator:
    /// revalidates:onStoreFailure:isolation:_:)` (its index kept in `indexes`, read again when the bytes changed under
    /// it, `body` then run once more), a stream through a `StreamSession` of its own, whose segments' pictures wait
    /// within `workLimits` too; a Matroska file's index is kept in `indexes` as a movie's is (`KeptIndexReading`).
    /// - Throws: what opening the input, locating the movie, reading the playlist or `body` throws.
    public static func withMedia<Result>(
        of input: any MovieInput, indexes: (any MovieIndexStore)? = nil,
        sampleCacheBytes: Int = ThumbnailLimits().sampleCacheBytes, workLimits: ThumbnailWorkLimits? = nil,
        locator: MovieLocator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand)),
        revalidates: Bool = false, onStoreFailure: (any Error) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation, _ body: (Media) async throws -> Result
    ) async throws -> Result {
        try await input.readingMedia(asMovie: {
            try await MovieSession.withSession(of: input, indexes: indexes, sampleCacheBytes: sampleCacheBytes,
                                               workLimits: workLimits, locator: locator, revalidates: revalidates,
                                               onStoreFailure: onStoreFailure) { session in
                try await body(.movie(session))
            }
        }, asStream: { description in
            guard description == .matroska else {
                return try await body(.stream(StreamSession(input: input, description: description, workLimits: workLimits)))
            }
            return try await KeptIndexReading.run(
                of: input, indexes: indexes, revalidates: revalidates, onStoreFailure: onStoreFailure,
                uses: { $0.matroska != nil },
                open: { kept in StreamSession(input: input, description: .matroska, workLimits: workLimits, kept: kept) },
                revalidate: { session in try await session.readFirstByte() },
                entryToKeep: { session, kept in await session.matroskaEntryToKeep(replacing: kept) },
                { session in try await body(.stream(session)) })
        })
    }
}
