import ByteSources
import MP4Box

/// What `thumbs info` and the service's `/info` say of a `Media`: a movie's tracks and index (`MovieSummary`), or a
/// stream's periods and renditions (`StreamSummary`).
public enum MediaSummary: Sendable {
    case movie(MovieSummary)
    case stream(StreamSummary)

    /// What a movie's summary says reading it cost (`MovieSummary.bytesRead`, `reads`).
    public enum Cost: Sendable {
        /// What locating the index read, as the locator asked for it (`MovieSession.locatingCost`): the same from a
        /// file as from a URL; `thumbs info`'s.
        case locating
        /// Every request the movie's session made, on the wire (with a kept index, only what checking it read);
        /// the service's `/info`.
        case session
    }

    /// The summary of `media`: of a movie, its complete index and the file's length where known, with what reading
    /// it cost as `cost` counts it; of a stream, its playlist or manifest and every media playlist it names (one read
    /// each).
    /// - Throws: `MP4Error`, `ManifestError`, or the input's errors.
    public static func read(_ media: Media, cost: Cost) async throws -> MediaSummary {
        switch media {
        case .movie(let session):
            let movie = try await session.loadCompleteMovie()
            let fetched = await session.statistics
            let (bytesRead, reads) = switch cost {
            case .locating: await session.locatingCost ?? (0, 0)
            case .session: (Int(fetched.bytes), fetched.requests)
            }
            return .movie(MovieSummary(movie, fileSize: await session.source.knownLength, bytesRead: bytesRead, reads: reads))
        case .stream(let session):
            return .stream(try await StreamSummary.read(session))
        }
    }

    /// The summary as stable JSON (sorted keys): `thumbs info --json`'s output.
    /// - Throws: `EncodingError` (not for summaries this package makes).
    public func json() throws -> [UInt8] {
        switch self {
        case .movie(let summary): try summary.json()
        case .stream(let summary): try summary.json()
        }
    }

    /// The summary as `thumbs info` prints it.
    public var text: String {
        switch self {
        case .movie(let summary): summary.text
        case .stream(let summary): summary.text
        }
    }

    /// What reading it cost: the bytes and requests of the index (a movie's) or of the playlists (a stream's).
    public var bytesRead: UInt64 {
        switch self {
        case .movie(let summary): UInt64(summary.bytesRead)
        case .stream(let summary): summary.bytesRead
        }
    }

    /// The requests reading it made.
    public var reads: Int {
        switch self {
        case .movie(let summary): summary.reads
        case .stream(let summary): summary.reads
        }
    }

    /// Whether it is a live stream's (whose playlists change, so an answer is not kept).
    public var isLive: Bool {
        if case .stream(let summary) = self { return summary.live }
        return false
    }
}
