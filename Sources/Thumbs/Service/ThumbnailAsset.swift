import MP4Box
import RangeFetch

/// A movie a `ThumbnailService` can open: a file, a URL, or any byte source, identified by a key.
public struct ThumbnailAsset: Sendable, Hashable, CustomStringConvertible {
    /// What identifies the movie (its path or URL).
    public let key: String
    /// Whether it is read over HTTP (its index is then cached with its validator).
    public let isRemote: Bool
    let fetchOptions: HTTPFetchOptions?
    let open: @Sendable () throws -> any ByteSource

    /// A local file.
    public static func file(_ path: String) -> ThumbnailAsset {
        ThumbnailAsset(key: path, isRemote: false, fetchOptions: nil) { try FileByteSource(path: path) }
    }

    /// An http(s) URL.
    public static func url(_ url: String, fetchOptions: HTTPFetchOptions = HTTPFetchOptions()) -> ThumbnailAsset {
        ThumbnailAsset(key: url, isRemote: true, fetchOptions: fetchOptions) { try HTTPByteSource(url: url, options: fetchOptions) }
    }

    /// Any byte source, made by `open` each time the service needs to read, identified by `key`.
    public static func source(key: String, _ open: @escaping @Sendable () throws -> any ByteSource) -> ThumbnailAsset {
        ThumbnailAsset(key: key, isRemote: false, fetchOptions: nil, open: open)
    }

    public static func == (lhs: ThumbnailAsset, rhs: ThumbnailAsset) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
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
