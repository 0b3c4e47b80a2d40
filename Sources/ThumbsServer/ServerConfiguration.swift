import RangeFetch
import Thumbs

/// What `thumbs serve` is told on its command line: where it listens, what it may fetch, how much it may hold and do.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on (0: any free port).
    public var port = 8080
    /// The origins `url=` may name: a URL is fetched only when it starts with one of these (see `OriginPolicy`).
    public var allowedOrigins: [OriginPrefix] = []
    /// With a key, every request needs `sig=`, the HMAC-SHA256 of its path and query (see `RequestSignature`).
    public var signingKey: [UInt8]?
    /// The directory `path=` may read movies from; nil: no local files are served.
    public var mediaRoot: String?
    /// URLs the page at `/` lists (besides the media root's movies); `/` is served when there are any, or a media root.
    public var pageURLs: [String] = []
    /// Memory for encoded thumbnails kept by the service, in bytes.
    public var cacheBytes = 64 << 20
    /// Thumbnails kept by the service, at most.
    public var cacheCount = 2_000
    /// Movie indexes kept in memory, at most.
    public var indexCapacity = 256
    /// Pictures made at once (a decoder and its frames until the file is encoded): what bounds the memory of work.
    public var maximumConcurrentDecodes = ThumbnailService.coreCount
    /// Requests that need work (not answered from the cache) waiting for a decode, beyond those decoding; past it
    /// the answer is 503 with `Retry-After`.
    public var maximumQueue = 64
    /// Seconds a request may take before it is answered 504.
    public var requestDeadline: Double = 30
    /// Seconds the making of a storyboard (every keyframe of the movie) may take before its requests are answered 504.
    public var storyboardDeadline: Double = 120
    /// Storyboards kept (their sheets' bytes), at most.
    public var storyboardCount = 64
    /// Memory for storyboards' sheets kept, in bytes.
    public var storyboardBytes = 64 << 20
    /// Where `s3://` URLs under an allowed `s3://bucket/prefix` are read and as whom: by default the AWS tools'
    /// environment (`AWS_REGION`, `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`).
    public var s3 = S3Configuration()
    /// Request headers passed on to origins (lower-case names); none by default.
    public var forwardedHeaders: Set<String> = []
    /// The largest movie index (moov and sample tables) and keyframe bytes one thumbnail may fetch from an origin.
    public var maximumOriginBytes: UInt64 = 256 << 20
    /// The most requests one thumbnail (or `/info`) may send to an origin: past it the answer is 422 `overBudget`. A
    /// movie's index and keyframe take a handful; an index walked one tiny read at a time stops here. Storyboards,
    /// whose requests grow with the movie's keyframes, have none.
    public var maximumOriginRequests = 256
    /// `max-age` of `Cache-Control` on images, tracks and info, in seconds.
    public var maxAge = 86_400
    /// Seconds a connection may wait for a whole request header, from its opening or from its previous answer:
    /// a client that sends its header slowly, or keeps an idle connection, is closed after it.
    public var idleTimeout: Double = 30
    /// Client connections open at once, at most; one more is closed as soon as it is accepted.
    public var maximumConnections = 512

    /// The longest deadline: a day.
    public static let maximumDeadline: Double = 86_400

    /// The defaults: loopback, port 8080, no origin allowed.
    public init() {}

    /// Checks what the settings alone can tell.
    /// - Throws: `ServerError` `invalidConfiguration` for a deadline or idle timeout that is not above 0 and at most
    ///   `maximumDeadline` seconds (infinite, NaN, or too long for a sleep to take), or a connection limit below 1.
    func validate() throws(ServerError) {
        for (name, seconds) in [("--deadline (requestDeadline)", requestDeadline), ("storyboardDeadline", storyboardDeadline),
                                ("--idle-timeout (idleTimeout)", idleTimeout)]
        where !(seconds > 0 && seconds <= Self.maximumDeadline) {
            throw ServerError(.invalidConfiguration, "\(name) must be above 0 and at most \(Int(Self.maximumDeadline)) seconds, not \(seconds)")
        }
        guard maximumConnections >= 1 else {
            throw ServerError(.invalidConfiguration, "--max-connections (maximumConnections) must be 1 or more, not \(maximumConnections)")
        }
    }
}
