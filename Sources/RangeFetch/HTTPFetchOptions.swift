import HTTPTypes

/// How an `HTTPByteSource` fetches.
public struct HTTPFetchOptions: Sendable {
    /// What to do when the resource changes between reads.
    public enum ChangePolicy: Sendable {
        /// Throw `FetchError` `resourceChanged`.
        case fail
        /// Adopt the new validator and serve the new bytes; the caller is expected to start over.
        case restart
    }

    /// Headers sent with every request (authorisation, cookies). Authorization, Cookie and Proxy-Authorization are
    /// not sent on after a redirect to another origin.
    public var headers = HTTPFields()
    /// What signs each request to the URL's origin (`AWSSignatureV4` for S3); nil sends them unsigned.
    public var signer: (any HTTPRequestSigner)?
    /// How long to wait for a connection (whole milliseconds, 1 ms to a day).
    public var connectTimeout: Duration = .seconds(10)
    /// How long to wait for each read from the connection: the response head, then each chunk of the body (whole
    /// milliseconds, 1 ms to a day).
    public var readTimeout: Duration = .seconds(30)
    /// Redirects followed for one request before `FetchError` `redirectRefused`. Later reads go straight to
    /// where the redirects led.
    public var maximumRedirects: Int = 5
    /// Whether to follow a redirect to this (absolute http or https) URL; nil follows any. Other schemes are never followed.
    public var allowsRedirect: (@Sendable (String) -> Bool)?
    /// Retries of one range after a reset, a timeout or 502/503/504.
    public var maximumRetries: Int = 3
    /// The wait before the first retry; doubles each time.
    public var retryBackoff: Duration = .milliseconds(100)
    /// What a changed validator means.
    public var changePolicy: ChangePolicy = .fail
    /// Most body bytes this source may receive (nil: no cap): a body stops arriving, mid-transfer, once it would pass
    /// this, with `budgetExceeded`.
    public var maximumBytes: UInt64?
    /// Most requests this source may send (nil: no cap).
    public var maximumRequests: Int?
    /// How long after the first request requests and bodies still arriving fail with `budgetExceeded` (nil: no
    /// deadline). Measured on a monotonic clock.
    public var deadline: Duration?
    /// A server that ignores Range answers with the whole resource. A body of at most this many bytes is then read to
    /// its end once and kept: later reads cost no request, and the bytes counted are the bytes the server sent. A
    /// longer one is read only as far as each read needs, and the server may have sent more than is counted by the
    /// time the connection closes. Default 64 MiB: what one thumbnail may hold in memory for it.
    public var maximumKeptBodyBytes: UInt64 = 64 << 20

    /// The defaults.
    public init() {}

    /// The caller's headers, which may change the response (credentials, cookies, anything a server varies on),
    /// normalised: requests whose identities differ never share a cached index or picture.
    public var responseIdentity: String {
        headers.map { "\($0.name.canonicalName): \($0.value)" }.sorted().joined(separator: "\n")
    }
}
