import ByteSources
import Hummingbird
import MP4Box
import RangeFetch
import Thumbs

/// Turns a request's `url=` or `path=` into the asset to read, refusing what the service must never read: a URL
/// outside the allowed origins or of another scheme, a redirect out of them, a local file outside the media root,
/// and any local file through `url=`.
struct InputResolver: Sendable {
    let allowedOrigins: [OriginPrefix]
    /// Where `s3://` URLs are read and as whom (the server's environment).
    let s3: S3Configuration
    let mediaRoot: MediaRoot?
    let forwardedHeaders: Set<String>
    let maximumOriginBytes: UInt64
    /// The most origin requests one picture (a thumbnail, an info) may send.
    let maximumOriginRequests: Int
    let client: RangeFetchClient

    /// How a cache in front may keep the answer to `request`: varying on every forwarded header, private when the
    /// request carries one.
    func cachePolicy(for request: Request) -> CachePolicy {
        CachePolicy(vary: forwardedHeaders.sorted(),
                    isPrivate: request.headers.contains { forwardedHeaders.contains($0.name.canonicalName) })
    }

    /// Whether `url` is under an allowed origin.
    func isAllowed(_ url: String) -> Bool {
        guard let parsed = S3Location.isS3(url) ? ParsedURL(s3: url, prefix: false) : ParsedURL(url) else { return false }
        return allowedOrigins.contains { $0.contains(parsed) }
    }

    /// The asset `parameters` name (exactly one of `url` and `path`), with the request's forwarded headers; fetched
    /// within `maximumOriginRequests` when it is read for one picture, else (a storyboard's many) without a request
    /// budget.
    /// - Throws: `ServerError` `badParameter` (neither or both), `originNotAllowed`, `pathNotAllowed`, `notFound`.
    func asset(_ parameters: QueryParameters, request: Request, onePicture: Bool = true) throws(ServerError) -> ThumbnailAsset {
        switch (parameters.string("url"), parameters.string("path")) {
        case (let url?, nil):
            guard isAllowed(url) else {
                throw ServerError(.originNotAllowed, parameter: "url", "\(URLRedaction.shown(url)) is not under an allowed origin")
            }
            var options = HTTPFetchOptions()
            options.maximumBytes = maximumOriginBytes
            options.maximumRequests = onePicture ? maximumOriginRequests : nil
            if S3Location.isS3(url) {
                // Signed with the server's own credentials: no client header goes to the store.
                options.allowsRedirect = { _ in false }
                do {
                    return ThumbnailAsset(try S3Input(url: url, configuration: s3, options: options, client: client))
                } catch {
                    throw ServerError(.originNotAllowed, parameter: "url", "\(URLRedaction.shown(url)) is not an s3://bucket/key url")
                }
            }
            let allowed = allowedOrigins
            options.allowsRedirect = { target in
                guard let parsed = ParsedURL(target) else { return false }
                return allowed.contains { $0.contains(parsed) }
            }
            for field in request.headers where forwardedHeaders.contains(field.name.canonicalName) {
                options.headers.append(field)
            }
            do {
                return ThumbnailAsset(try HTTPInput(url: url, options: options, client: client))
            } catch {
                throw ServerError(.originNotAllowed, parameter: "url", "\(URLRedaction.shown(url)) is not an http or https url")
            }
        case (nil, let path?):
            guard let mediaRoot else { throw ServerError(.pathNotAllowed, parameter: "path", "this server serves no local files") }
            // Named by the path asked for: no message about the file shows where the media root is.
            return ThumbnailAsset(try MediaRootInput(path, in: mediaRoot))
        case (nil, nil):
            throw ServerError(.badParameter, parameter: "url", "url (or path) is required")
        case (_?, _?):
            throw ServerError(.badParameter, parameter: "path", "give url or path, not both")
        }
    }
}
