import AsyncHTTPClient
import Crypto
import Foundation

/// AWS Signature Version 4 in the Authorization header ("Authenticating Requests: Using the Authorization Header
/// (AWS Signature Version 4)" in the Amazon S3 API reference), for requests to S3 and S3-compatible stores: a GET's
/// payload unsigned (`x-amz-content-sha256: UNSIGNED-PAYLOAD`), a written one by its SHA-256 (`S3ObjectStore`), and
/// `host`, `range` and the `x-amz-*` headers signed.
///
/// The canonical URI is the request's path exactly as it goes on the wire (S3 encodes it once and does not normalise
/// it), the canonical query its parameters sorted as written.
public struct AWSSignatureV4: HTTPRequestSigner {
    /// The payload hash sent and signed for a GET: its body is empty and not signed.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of an empty payload, signed for a request without a body that signs its payload.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Who signs.
    public var credentials: AWSCredentials
    /// The region of the credential scope (`us-east-1`, ...).
    public var region: String
    /// The service of the credential scope.
    public var service: String
    /// The payload hash sent in `x-amz-content-sha256` and signed.
    public var payloadHash: String

    /// A signer for `service` in `region`.
    public init(credentials: AWSCredentials, region: String, service: String = "s3",
                payloadHash: String = AWSSignatureV4.unsignedPayload) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.payloadHash = payloadHash
    }

    public func sign(_ request: inout HTTPClientRequest, at date: Date) throws {
        guard let components = URLComponents(string: request.url), let host = components.host else {
            throw FetchError(.unsupportedURL, url: request.url, "the url has no host to sign")
        }
        let defaultPort = components.scheme?.lowercased() == "https" ? 443 : 80
        let hostValue = components.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
        let timestamp = Self.timestamp(date)
        request.headers.replaceOrAdd(name: "Host", value: hostValue)
        request.headers.replaceOrAdd(name: "x-amz-date", value: timestamp)
        request.headers.replaceOrAdd(name: "x-amz-content-sha256", value: payloadHash)
        if let token = credentials.sessionToken {
            request.headers.replaceOrAdd(name: "x-amz-security-token", value: token)
        }
        let signedHeaders = Self.canonicalHeaders(request.headers.map { ($0.name, $0.value) })
        let canonicalRequest = Self.canonicalRequest(
            method: request.method.rawValue, path: components.percentEncodedPath,
            query: components.percentEncodedQuery, headers: signedHeaders, payloadHash: payloadHash)
        let scope = "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", timestamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8),
                                                                 using: signingKey(day: String(timestamp.prefix(8)))))
        let names = signedHeaders.map(\.name).joined(separator: ";")
        request.headers.replaceOrAdd(
            name: "Authorization",
            value: "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(names), Signature=\(signature)")
    }

    /// The key a day's signatures are made with: the secret chained through the date, region, service and
    /// `aws4_request`.
    func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// The headers signed, lower-cased with their values trimmed and inner runs of spaces made one, sorted by name:
    /// `host`, `range` and every `x-amz-*`.
    static func canonicalHeaders(_ headers: [(String, String)]) -> [(name: String, value: String)] {
        var signed: [String: [String]] = [:]
        for (name, value) in headers {
            let lowered = name.lowercased()
            guard lowered == "host" || lowered == "range" || lowered.hasPrefix("x-amz-") else { continue }
            let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            signed[lowered, default: []].append(trimmed)
        }
        return signed.keys.sorted().map { ($0, signed[$0, default: []].joined(separator: ",")) }
    }

    /// The canonical request: method, path, query (its parameters sorted as written), headers, the names signed and
    /// the payload hash, a line each.
    static func canonicalRequest(method: String, path: String, query: String?, headers: [(name: String, value: String)],
                                 payloadHash: String) -> String {
        var parameters: [(name: String, value: String)] = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value: String = parts.count > 1 ? String(parts[1]) : ""
            parameters.append((String(parts[0]), value))
        }
        parameters.sort { lhs, rhs in lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name }
        let canonicalQuery = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return [
            method,
            path.isEmpty ? "/" : path,
            canonicalQuery,
            headers.map { "\($0.name):\($0.value)\n" }.joined(),
            headers.map(\.name).joined(separator: ";"),
            payloadHash,
        ].joined(separator: "\n")
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// Lower-case hexadecimal.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
