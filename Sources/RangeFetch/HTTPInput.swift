import ByteSources
import HTTPTypes

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

    /// The URL: a playlist's relative references are resolved against it.
    public var referenceBase: String? { url }

    /// The resource at `reference`, an absolute http(s) URL, fetched with these options and client; the credential
    /// headers (Authorization, Cookie, Proxy-Authorization) go only to the same origin, as on a redirect.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https, `redirectRefused` when
    ///   `options.allowsRedirect` refuses the URL (a service's allowed origins hold for what a playlist names too).
    public func input(at reference: String) throws -> any MovieInput {
        guard HTTPByteSource.isHTTP(reference) else {
            throw FetchError(.unsupportedURL, url: reference, "\(name) names a url that is not http or https")
        }
        if let allowsRedirect = options.allowsRedirect, !allowsRedirect(reference) {
            throw FetchError(.redirectRefused, url: reference, "\(name) names a url outside the allowed origins")
        }
        var options = options
        if OriginRangeSupport.origin(of: reference) != OriginRangeSupport.origin(of: url) {
            options.headers = HTTPFields(options.headers.filter { !HTTPByteSource.credentialHeaders.contains($0.name) })
        }
        return try HTTPInput(url: reference, options: options, client: client)
    }

    /// A new `HTTPByteSource`, starting from `known` (its requests carry If-Range with the known validator).
    public func open(known: KnownVersion?) throws -> any ByteSource {
        try HTTPByteSource(url: url, options: options, client: client, known: known)
    }
}
