import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /thumbnail.png|.jpg|.webp|.avif`, and `/thumbnail` whose format `format=` names or the request's `Accept`
/// chooses (`ImageNegotiation`; the answer then says `Vary: Accept`): one picture through the process's
/// `ThumbnailService`, so identical concurrent requests share one fetch and decode, a client that goes away gives up
/// its share, and work is bounded by the admission gate (`AdmittedWork`).
struct ThumbnailRoute: Sendable {
    let service: ThumbnailService
    let resolver: InputResolver
    let work: AdmittedWork
    let maxAge: Int

    /// The answer to `request` for an image of `format` (nil: of the format `format=` names, else the one `Accept`
    /// chooses).
    func respond(to request: Request, context: some RequestContext, format: String?) async throws -> Response {
        try await answering(request, context: context, resolver: resolver) { watchesConnection in
            try await answer(request, format: format, watchesConnection: &watchesConnection)
        }
    }

    private func answer(_ request: Request, format route: String?, watchesConnection: inout Bool) async throws -> Response {
        let parameters = try QueryParameters(request.uri, known: ThumbnailQuery.names)
        let named = try parameters.string("format").map { name throws(ServerError) in
            guard route == nil else {
                throw ServerError(.badParameter, parameter: "format", "format is for /thumbnail, whose name gives none")
            }
            guard let format = ThumbnailQuery.formats[name.lowercased()] else {
                throw ServerError(.badParameter, parameter: "format", "format takes png, jpg, webp or avif")
            }
            return format
        }
        let negotiates = route == nil && named == nil
        let format = try route ?? named
            ?? ImageNegotiation.format(accepting: request.headers[.accept], lossless: parameters.flag("lossless"))
        let query = try ThumbnailQuery(parameters, format: format)
        let asset = try resolver.asset(parameters, request: request)
        let thumbnailRequest = ThumbnailRequest(asset: asset, time: query.time, options: query.options)
        let route = "thumbnail." + format
        let ifNoneMatch = request.headers[.ifNoneMatch]
        var policy = resolver.cachePolicy(for: request)
        if negotiates { policy.vary = (policy.vary + ["accept"]).sorted() }

        // The newest picture of a live stream moves on: tagged by its bytes, to be asked for again.
        if query.time == .latest {
            return try await latest(thumbnailRequest, request: request, policy: policy, watchesConnection: &watchesConnection)
        }

        // Unchanged without work: the tag from the validator of the index already in memory.
        if let ifNoneMatch {
            let validator = await service.knownVersion(of: asset)?.version
            if let tag = EntityTag(route: route, parameters: query.canonical, identity: asset.input.identity, validator: validator),
               tag.isMatched(byIfNoneMatch: ifNoneMatch) {
                return Response(status: .notModified, headers: tag.headers(maxAge: maxAge, policy: policy))
            }
        }

        let thumbnail: Thumbnail
        let cached = await service.cachedThumbnail(thumbnailRequest)
        if let cached {
            thumbnail = cached
        } else {
            let service = self.service
            thumbnail = try await work.run(for: request, watchesConnection: &watchesConnection) {
                try await service.thumbnail(thumbnailRequest)
            }
        }

        let tag = EntityTag(route: route, parameters: query.canonical, identity: asset.input.identity,
                            validator: thumbnail.sourceVersion?.version) ?? EntityTag(bytes: thumbnail.encoded)
        return response(thumbnail, of: thumbnailRequest, tag: tag, maxAge: maxAge, request: request, policy: policy,
                        cacheHit: cached != nil)
    }

    /// The answer with `thumbnail` (made for `thumbnailRequest`), or 304 when `request`'s If-None-Match matches `tag`.
    private func response(_ thumbnail: Thumbnail, of thumbnailRequest: ThumbnailRequest, tag: EntityTag, maxAge: Int,
                          request: Request, policy: CachePolicy, cacheHit: Bool) -> Response {
        var headers = tag.headers(maxAge: maxAge, policy: policy)
        if let ifNoneMatch = request.headers[.ifNoneMatch], tag.isMatched(byIfNoneMatch: ifNoneMatch) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = thumbnailRequest.options.format?.mediaType ?? "application/octet-stream"
        headers[Self.serverTiming] = cacheHit ? "cache;desc=hit" : Self.serverTimingValue(thumbnail.timings)
        headers[Self.actualTime] = String(thumbnail.actualTime)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.encoded)))
    }

    /// The answer for `time=latest`: made every time (requests at once share it), tagged by its bytes, and fresh for
    /// no time (`max-age=0`), so a cache in front asks again and gets a 304 while it is unchanged.
    private func latest(_ thumbnailRequest: ThumbnailRequest, request: Request, policy: CachePolicy,
                        watchesConnection: inout Bool) async throws -> Response {
        let service = self.service
        let thumbnail = try await work.run(for: request, watchesConnection: &watchesConnection) {
            try await service.thumbnail(thumbnailRequest)
        }
        return response(thumbnail, of: thumbnailRequest, tag: EntityTag(bytes: thumbnail.encoded), maxAge: 0, request: request,
                        policy: policy, cacheHit: false)
    }

    /// `Server-Timing` (W3C Server Timing), which HTTPTypes does not name.
    static let serverTiming = HTTPField.Name("Server-Timing")!
    /// `Thumbs-Actual-Time`: the presentation time of the frame shown, in seconds (AVAssetImageGenerator's actual time).
    static let actualTime = HTTPField.Name("Thumbs-Actual-Time")!

    /// `Server-Timing` of the stages, in milliseconds.
    static func serverTimingValue(_ timings: Thumbnail.Timings) -> String {
        [("index", timings.index.milliseconds), ("fetch", timings.fetch.milliseconds), ("decode", timings.decode.milliseconds),
         ("render", timings.render.milliseconds), ("encode", timings.encode.milliseconds)]
            .map { name, milliseconds in "\(name);dur=\((milliseconds * 10).rounded() / 10)" }
            .joined(separator: ", ")
    }
}
