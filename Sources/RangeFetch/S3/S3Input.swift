import ByteSources

/// An object in S3 or an S3-compatible store, read with range GETs signed with AWS Signature Version 4 (no SDK):
/// a `MovieInput` whose sources are `HTTPByteSource`s of the object's URL.
///
/// Its identity is the `s3://` URL and the endpoint, never the credentials; the requests carry no credential in
/// their URL, so none reaches an error, a log or `--stats`.
public struct S3Input: MovieInput {
    /// The object.
    public let location: S3Location
    /// The region, endpoint and credentials.
    public let configuration: S3Configuration
    /// How it is fetched (headers, retries, budgets); the signer is set by `open(known:)`.
    public let options: HTTPFetchOptions
    /// The client the requests go through (nil: the shared one for the options' timeouts).
    public let client: RangeFetchClient?
    /// The object's http(s) URL.
    public let url: String

    /// The object at `location`.
    /// - Throws: `FetchError` `unsupportedURL` when the configuration's endpoint is not an http(s) URL.
    public init(_ location: S3Location, configuration: S3Configuration = S3Configuration(),
                options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil) throws {
        self.location = location
        self.configuration = configuration
        self.options = options
        self.client = client
        url = try configuration.url(of: location)
    }

    /// The object an `s3://bucket/key` URL names.
    /// - Throws: `FetchError` `unsupportedURL` for anything but an `s3://bucket/key` URL, or an endpoint that is not
    ///   an http(s) URL.
    public init(url: String, configuration: S3Configuration = S3Configuration(), options: HTTPFetchOptions = HTTPFetchOptions(),
                client: RangeFetchClient? = nil) throws {
        guard let location = S3Location(url) else {
            throw FetchError(.unsupportedURL, url: url, "not an s3://bucket/key url")
        }
        try self.init(location, configuration: configuration, options: options, client: client)
    }

    public var name: String { location.description }

    /// The `s3://` URL, the URL it is read from (the endpoint), then the headers that change the response.
    public var identity: String {
        let headers = options.responseIdentity
        return [location.description, url, headers].filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// The `s3://bucket/key` URL: a playlist's relative references are resolved against it (to keys in the bucket).
    public var referenceBase: String? { location.description }

    /// The object at `reference`, an `s3://bucket/key` URL, read with this configuration, options and client.
    /// - Throws: `FetchError` `unsupportedURL` for anything else (an S3 playlist names objects in a store).
    public func input(at reference: String) throws -> any MovieInput {
        try S3Input(url: reference, configuration: configuration, options: options, client: client)
    }

    /// A new `HTTPByteSource` of the object's URL, its requests signed when there are credentials.
    public func open(known: KnownVersion?) throws -> any ByteSource {
        var options = self.options
        if let credentials = configuration.credentials {
            options.signer = AWSSignatureV4(credentials: credentials, region: configuration.region)
        }
        return try HTTPByteSource(url: url, options: options, client: client, known: known)
    }
}
