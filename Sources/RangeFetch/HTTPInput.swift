import ByteSources

/// An http(s) URL fetched with given options: a `MovieInput` whose sources are `HTTPByteSource`s.
///
/// Its identity is the URL and the headers sent with it, so requests with other credentials or cookies never
/// share an index or a picture.
public struct HTTPInput: MovieInput {
    /// The URL.
    public let url: String
    /// How it is fetched (headers, retries, budgets).
    public let options: HTTPFetchOptions
    /// The client the requests go through (nil: the shared one for the options' timeouts).
    public let client: RangeFetchClient?

    /// The resource at `url`.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil) throws {
        guard HTTPByteSource.isHTTP(url) else {
            throw FetchError(.unsupportedURL, url: url, "only http and https urls can be read")
        }
        self.url = url
        self.options = options
        self.client = client
    }

    /// The URL as messages show it (`URLRedaction`: no user info or query); `identity` has all of it.
    public var name: String { URLRedaction.shown(url) }

    /// The URL, then the headers that change the response, one per line.
    public var identity: String {
        let headers = options.responseIdentity
        return headers.isEmpty ? url : url + "\n" + headers
    }

    /// A new `HTTPByteSource`, starting from `known` (its requests carry If-Range with the known validator).
    public func open(known: KnownVersion?) throws -> any ByteSource {
        try HTTPByteSource(url: url, options: options, client: client, known: known)
    }
}
