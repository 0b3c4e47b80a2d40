import MP4Box
import RangeFetch

/// A movie a `ThumbnailService` can open: a file, a URL, or any byte source, identified by a key.
///
/// Two assets are the same when their identity is: the path of a file, the URL together with the headers it is
/// fetched with (requests with other credentials or cookies never share work, an index or a picture), or the key
/// of a custom source.
public struct ThumbnailAsset: Sendable, Hashable, CustomStringConvertible {
    /// What names the movie (its path or URL).
    public let key: String
    /// Whether it is read over HTTP (its index is then cached with its validator).
    public let isRemote: Bool
    /// The key and whatever else changes the bytes read (a URL's headers).
    let identity: String
    let fetchOptions: HTTPFetchOptions?
    let open: @Sendable () throws -> any ByteSource
    /// The version of the bytes now, where it can be known without a read (a local file's), else nil.
    let currentVersion: @Sendable () -> String?

    /// A local file.
    public static func file(_ path: String) -> ThumbnailAsset {
        ThumbnailAsset(key: path, isRemote: false, identity: path, fetchOptions: nil,
                       open: { try FileByteSource(path: path) }, currentVersion: { FileByteSource.version(ofFileAt: path) })
    }

    /// An http(s) URL.
    public static func url(_ url: String, fetchOptions: HTTPFetchOptions = HTTPFetchOptions()) -> ThumbnailAsset {
        ThumbnailAsset(key: url, isRemote: true, identity: MovieIndexCache.key(url: url, options: fetchOptions),
                       fetchOptions: fetchOptions, open: { try HTTPByteSource(url: url, options: fetchOptions) },
                       currentVersion: { nil })
    }

    /// Any byte source, made by `open` each time the service needs to read, identified by `key` (which must
    /// change when the bytes do).
    public static func source(key: String, _ open: @escaping @Sendable () throws -> any ByteSource) -> ThumbnailAsset {
        ThumbnailAsset(key: key, isRemote: false, identity: key, fetchOptions: nil, open: open, currentVersion: { nil })
    }

    public static func == (lhs: ThumbnailAsset, rhs: ThumbnailAsset) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
    public var description: String { key }
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
}
