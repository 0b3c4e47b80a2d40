import Foundation
import NIOHTTP1
import XMLDocuments

/// Objects of S3 or an S3-compatible store written, looked at and listed, with requests signed by AWS Signature
/// Version 4 (no SDK): `PutObject` with a type, caching and user metadata (`x-amz-meta-*`), `HeadObject` (what a writer
/// checks to skip an output that is current), and `ListObjectsV2` (every page). Reading an object is `S3Input`'s.
///
/// Transient failures (5xx, 429, connection failures, timeouts) are retried up to the options' `maximumRetries`,
/// backing off from `retryBackoff`; errors are `FetchError`s naming the `s3://` URL, never a credential.
public struct S3ObjectStore: Sendable {
    /// The region, endpoint and credentials.
    public let configuration: S3Configuration
    /// Timeouts, retries and extra headers.
    public let options: HTTPFetchOptions
    /// The client the requests go through.
    public let client: RangeFetchClient

    /// Most keys a listing gathers.
    public static let maximumListedKeys = 10_000_000

    /// A store; `client` nil: the shared one for the options' timeouts.
    public init(configuration: S3Configuration = S3Configuration(), options: HTTPFetchOptions = HTTPFetchOptions(),
                client: RangeFetchClient? = nil) {
        self.configuration = configuration
        self.options = options
        self.client = client ?? RangeFetchClient.shared(for: options)
    }

    /// What `HeadObject` says of an object.
    public struct ObjectHead: Sendable, Equatable {
        /// The entity tag, quotes included.
        public var etag: String?
        /// The length in bytes.
        public var length: UInt64?
        /// `Content-Type`.
        public var contentType: String?
        /// The user metadata (`x-amz-meta-NAME`), by lower-case name without the prefix, `%XX` escapes decoded.
        public var metadata: [String: String]
    }

    /// An object a listing names.
    public struct ListedObject: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The length in bytes.
        public var size: UInt64
        /// The entity tag, quotes included.
        public var etag: String?
    }

    /// What `HeadObject` says of the object at `location`; nil when there is none (404).
    /// - Throws: `FetchError` (`forbidden`, `serverError`, connection failures...).
    public func head(_ location: S3Location) async throws -> ObjectHead? {
        let url = try configuration.url(of: location)
        let (response, _) = try await requests.send(.HEAD, url: url, name: location.description, allowsNotFound: true)
        guard let response else { return nil }
        var metadata: [String: String] = [:]
        for field in response.headers where field.name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(field.name.lowercased().dropFirst("x-amz-meta-".count))] = Self.metadataValue(field.value)
        }
        return ObjectHead(etag: response.headers.first(name: "ETag"),
                          length: response.headers.first(name: "Content-Length").flatMap { UInt64($0) },
                          contentType: response.headers.first(name: "Content-Type"), metadata: metadata)
    }

    /// Writes `bytes` as the object at `location` (`PutObject`), with `contentType`, `cacheControl` and `metadata`
    /// (names of letters, digits and hyphens; sent as `x-amz-meta-NAME`, values with `%`, line breaks or non-ASCII
    /// percent-encoded, as `head(_:)` decodes them); the payload is signed by its SHA-256.
    /// Returns the new object's entity tag.
    /// - Throws: `FetchError` (`forbidden`, `clientError` for a refused name or value, `serverError`...).
    @discardableResult
    public func put(_ bytes: [UInt8], at location: S3Location, contentType: String, cacheControl: String? = nil,
                    metadata: [String: String] = [:]) async throws -> String? {
        let url = try configuration.url(of: location)
        var headers: [(String, String)] = [("Content-Type", contentType)]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.utf8.allSatisfy({ Self.isMetadataNameByte($0) }) else {
                throw FetchError(.unsupportedURL, url: location.description, "metadata name '\(name)' is not letters, digits and hyphens")
            }
            headers.append(("x-amz-meta-" + name.lowercased(), Self.headerSafe(value)))
        }
        let (response, _) = try await requests.send(.PUT, url: url, name: location.description, headers: headers, body: bytes)
        return response?.headers.first(name: "ETag")
    }

    /// The objects of `bucket` whose keys start with `prefix`, in key order, from every page of `ListObjectsV2` (of
    /// `pageSize` keys each; nil: the store's own, 1,000 for S3).
    /// - Throws: `FetchError` (`notFound` for a missing bucket, `forbidden`, `invalidResponse` for a listing that does
    ///   not read, `budgetExceeded` past `maximumListedKeys`...).
    public func list(bucket: String, prefix: String, pageSize: Int? = nil) async throws -> [ListedObject] {
        let bucketURL = try configuration.url(of: S3Location(bucket: bucket, key: "")).dropLastSlash
        let name = S3Location.scheme + bucket + "/" + prefix
        var objects: [ListedObject] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            if let pageSize { query.append(("max-keys", String(max(1, pageSize)))) }
            let encoded = query.map { "\($0.0)=\(S3Location.percentEncoded($0.1, keeping: ""))" }.joined(separator: "&")
            let (_, body) = try await requests.send(.GET, url: bucketURL + "?" + encoded, name: name)
            let page = try ListPage(body, name: name)
            objects += page.objects
            guard objects.count <= Self.maximumListedKeys else {
                throw FetchError(.budgetExceeded, url: name, "more than \(Self.maximumListedKeys) keys")
            }
            token = page.isTruncated ? page.nextToken : nil
            if page.isTruncated, token == nil {
                throw FetchError(.invalidResponse, url: name, "a truncated listing page without a NextContinuationToken")
            }
        } while token != nil
        return objects
    }

    /// One page of a `ListObjectsV2` answer.
    struct ListPage {
        var objects: [ListedObject] = []
        var isTruncated = false
        var nextToken: String?

        init(_ body: [UInt8], name: String) throws {
            let root: XMLElement
            do {
                root = try XMLReader.root(of: String(decoding: body, as: UTF8.self), maximumDepth: 16)
            } catch {
                throw FetchError(.invalidResponse, url: name, "the listing is not XML: \(error)")
            }
            guard root.name == "ListBucketResult" else {
                throw FetchError(.invalidResponse, url: name, "the listing's root is \(root.name), not ListBucketResult")
            }
            isTruncated = root.child(named: "IsTruncated")?.text == "true"
            nextToken = root.child(named: "NextContinuationToken")?.text
            for contents in root.children(named: "Contents") {
                guard let key = contents.child(named: "Key")?.text, !key.isEmpty else { continue }
                objects.append(ListedObject(key: key, size: contents.child(named: "Size").flatMap { UInt64($0.text) } ?? 0,
                                            etag: contents.child(named: "ETag")?.text))
            }
        }
    }

    /// Requests to the store, signed for `s3`.
    private var requests: AWSServiceRequests {
        AWSServiceRequests(client: client, options: options, credentials: configuration.credentials, region: configuration.region,
                           service: "s3", reason: Self.reason)
    }

    /// The store's error code and message where its body has them (`<Code>`, `<Message>`).
    @Sendable static func reason(_ body: [UInt8]) -> String? {
        guard let root = try? XMLReader.root(of: String(decoding: body.prefix(64 << 10), as: UTF8.self), maximumDepth: 8),
              let code = root.child(named: "Code")?.text else { return nil }
        let message = root.child(named: "Message")?.text
        return code + (message.map { ": \($0)" } ?? "")
    }

    static func isMetadataNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }

    /// `value` as a metadata header value: printable ASCII kept, `%` and anything else (line breaks, non-ASCII) as
    /// `%XX`; `metadataValue(_:)` reads it back.
    static func headerSafe(_ value: String) -> String {
        S3Location.percentEncoded(value, keeping: " !\"#$&'()*+,/:;<=>?@[\\]^`{|}")
    }

    /// A metadata header value as `put` wrote it: its `%XX` escapes decoded (a value that is not such text, as it is).
    static func metadataValue(_ header: String) -> String {
        S3Location.percentDecoded(header) ?? header
    }
}

private extension String {
    /// The text without a trailing `/`.
    var dropLastSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
