import ByteSources
import MP4Box

/// A movie a `ThumbnailService` can open: any `MovieInput` (a file, an `HTTPInput` from `RangeFetch`, your own),
/// compared by its identity.
///
/// Two assets are the same when their inputs' identities are: the path of a file, a URL together with the headers
/// it is fetched with (requests with other credentials or cookies never share work, an index or a picture), or the
/// key of a custom source.
public struct ThumbnailAsset: Sendable, Hashable, CustomStringConvertible {
    /// Where the bytes come from.
    public let input: any MovieInput
    /// The input's identity, kept for hashing.
    let identity: String

    /// The movie `input` reads.
    public init(_ input: any MovieInput) {
        self.input = input
        identity = input.identity
    }

    /// A local file.
    public static func file(_ path: String) -> ThumbnailAsset {
        ThumbnailAsset(FileInput(path: path))
    }

    /// Any byte source, made by `open` each time the service needs to read, identified by `key` (which must
    /// change when the bytes do).
    public static func source(key: String, _ open: @escaping @Sendable () throws -> any ByteSource) -> ThumbnailAsset {
        ThumbnailAsset(CustomInput(key: key, open))
    }

    /// The path or URL.
    public var key: String { input.name }

    public static func == (lhs: ThumbnailAsset, rhs: ThumbnailAsset) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
    public var description: String { input.name }
}

/// One thumbnail a list asks for: which movie, when, and how it should look.
public struct ThumbnailRequest: Sendable, Hashable {
    /// The movie.
    public var asset: ThumbnailAsset
    /// The time (nil: the poster time, else 10 %).
    public var time: ThumbnailTime?
    /// The look and the accepted frames.
    public var options: ThumbnailOptions

    /// Makes a request.
    public init(asset: ThumbnailAsset, time: ThumbnailTime? = nil, options: ThumbnailOptions = ThumbnailOptions()) {
        self.asset = asset
        self.time = time
        self.options = options
    }

    /// Checks the time and the options, as `ThumbnailGenerator.image(at:)` does. A request is a key of the service's
    /// work and pictures, and a time or tolerance that is not a number is unequal to itself: work under such a key
    /// could never be found again to hand its result to its waiters.
    /// - Throws: `ThumbnailError` `invalidOption`.
    public func validate() throws(ThumbnailError) {
        try time?.validate()
        try options.validate()
    }
}
