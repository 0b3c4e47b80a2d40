import AsyncHTTPClient
import Foundation

/// What authorises each request an `HTTPByteSource` sends, signed as it goes out (a signature covers the time it
/// was made at, so every request, retry and redirect to the same origin is signed anew): `AWSSignatureV4` for S3
/// and S3-compatible stores.
///
/// Requests to another origin (after a redirect) are never signed, as credentials headers are never sent there.
public protocol HTTPRequestSigner: Sendable {
    /// Adds the headers that authorise `request`, sent at `date`, to it.
    /// - Throws: `FetchError` `unsupportedURL` when the request's URL cannot be signed.
    func sign(_ request: inout HTTPClientRequest, at date: Date) throws
}
