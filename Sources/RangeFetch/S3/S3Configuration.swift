import Foundation

/// Where and as whom S3 objects are read: the region, the endpoint of an S3-compatible store, and the credentials,
/// usually from the environment the AWS tools read.
public struct S3Configuration: Sendable {
    /// The region requests are signed for.
    public var region: String
    /// An S3-compatible store's endpoint (`http://127.0.0.1:9000`, `https://storage.googleapis.com`): its objects
    /// are addressed path-style, `endpoint/bucket/key`. Nil: Amazon S3, addressed virtual-hosted,
    /// `https://bucket.s3.region.amazonaws.com/key` (path-style for bucket names with dots, which no certificate
    /// covers as a host).
    public var endpoint: String?
    /// Who signs the requests (`AWSSignatureV4`); nil reads public objects unsigned.
    public var credentials: AWSCredentials?

    /// A configuration.
    public init(region: String = "us-east-1", endpoint: String? = nil, credentials: AWSCredentials? = nil) {
        self.region = region
        self.endpoint = endpoint
        self.credentials = credentials
    }

    /// The configuration the AWS command line would use from `environment`: `AWS_REGION` (else `AWS_DEFAULT_REGION`,
    /// else `us-east-1`), `AWS_ENDPOINT_URL_S3` (else `AWS_ENDPOINT_URL`), and `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        self.init(region: value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1",
                  endpoint: value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL"),
                  credentials: AWSCredentials(environment: environment))
    }

    /// The http(s) URL of `location`.
    /// - Throws: `FetchError` `unsupportedURL` when the endpoint is not an http(s) URL with a host.
    public func url(of location: S3Location) throws -> String {
        guard let endpoint else {
            if location.bucket.contains(".") {
                return "https://s3.\(region).amazonaws.com/\(location.bucket)/\(location.encodedKey)"
            }
            return "https://\(location.bucket).s3.\(region).amazonaws.com/\(location.encodedKey)"
        }
        var base = endpoint
        while base.hasSuffix("/") { base.removeLast() }
        guard HTTPByteSource.isHTTP(base), let components = URLComponents(string: base), components.host?.isEmpty == false,
              components.query == nil else {
            throw FetchError(.unsupportedURL, url: location.description, "the S3 endpoint \(endpoint) is not an http or https url")
        }
        return "\(base)/\(location.bucket)/\(location.encodedKey)"
    }
}
