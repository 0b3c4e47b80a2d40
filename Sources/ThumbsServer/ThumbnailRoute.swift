import HTTPTypes
import Hummingbird
import MP4Box
import Thumbs
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /thumbnail.png|.jpg|.webp`: one picture through the process's `ThumbnailService`, so identical concurrent
/// requests share one fetch and decode, a client that goes away gives up its share, and work is bounded by the
/// admission gate.
struct ThumbnailRoute: Sendable {
    let service: ThumbnailService
    let resolver: InputResolver
    let gate: AdmissionGate
    let deadline: Double
    let maxAge: Int

    /// The answer to `request` for an image of `format`; errors are answered here too, so that an answer after work
    /// that watched the connection says it closes it (`consumeWithCancellationOnInboundClose` gives the connection up).
    func respond(to request: Request, context: some RequestContext, format: String) async throws -> Response {
        var closesConnection = false
        do {
            return try await answer(request, format: format, closesConnection: &closesConnection)
        } catch {
            var answer = ServerError(answering: error)
            // A local file's errors name it by its path on disk: answer with the path as it was asked for.
            if let root = resolver.mediaRoot?.path { answer.detail = answer.detail.replacingOccurrences(of: root + "/", with: "") }
            var response = try answer.response(from: request, context: context)
            if closesConnection { response.headers[.connection] = "close" }
            return response
        }
    }

    private func answer(_ request: Request, format: String, closesConnection: inout Bool) async throws -> Response {
        let parameters = try QueryParameters(request.uri, known: ThumbnailQuery.names)
        let query = try ThumbnailQuery(parameters, format: format)
        let asset = try resolver.asset(parameters, request: request)
        let thumbnailRequest = ThumbnailRequest(asset: asset, time: query.time, options: query.options)
        let route = "thumbnail." + format
        let ifNoneMatch = request.headers[.ifNoneMatch]

        // Unchanged without work: the tag from the validator of the index already in memory.
        if let ifNoneMatch {
            let validator = await service.knownVersion(of: asset)?.version
            if let tag = EntityTag(route: route, parameters: query.canonical, identity: asset.input.identity, validator: validator),
               tag.isMatched(byIfNoneMatch: ifNoneMatch) {
                return Response(status: .notModified, headers: cacheHeaders(tag))
            }
        }

        let cached = await service.isCached(thumbnailRequest)
        let thumbnail: Thumbnail
        if cached {
            thumbnail = try await service.thumbnail(thumbnailRequest)
        } else {
            guard gate.enter() else {
                throw ServerError(.overloaded, "\(gate.admittedCount) thumbnails are being made; try again", retryAfter: 1)
            }
            defer { gate.leave() }
            let service = self.service
            // The connection closes after an answer whose work watched it for the client going away.
            closesConnection = true
            thumbnail = try await withDeadline(seconds: deadline) {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await service.thumbnail(thumbnailRequest)
                }
            }
        }

        let tag = EntityTag(route: route, parameters: query.canonical, identity: asset.input.identity,
                            validator: thumbnail.sourceVersion?.version) ?? EntityTag(bytes: thumbnail.encoded)
        var headers = cacheHeaders(tag)
        if closesConnection { headers[.connection] = "close" }
        if let ifNoneMatch, tag.isMatched(byIfNoneMatch: ifNoneMatch) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = query.options.format?.mediaType ?? "application/octet-stream"
        headers[Self.serverTiming] = cached ? "cache;desc=hit" : Self.serverTimingValue(thumbnail.timings)
        headers[Self.actualTime] = String(thumbnail.actualTime)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.encoded)))
    }

    /// `Server-Timing` (W3C Server Timing), which HTTPTypes does not name.
    static let serverTiming = HTTPField.Name("Server-Timing")!
    /// `Thumbs-Actual-Time`: the presentation time of the frame shown, in seconds (AVAssetImageGenerator's actual time).
    static let actualTime = HTTPField.Name("Thumbs-Actual-Time")!

    private func cacheHeaders(_ tag: EntityTag) -> HTTPFields {
        [.eTag: tag.value, .cacheControl: "public, max-age=\(maxAge)"]
    }

    /// `Server-Timing` of the stages, in milliseconds.
    static func serverTimingValue(_ timings: Thumbnail.Timings) -> String {
        [("index", timings.indexMilliseconds), ("fetch", timings.fetchMilliseconds), ("decode", timings.decodeMilliseconds),
         ("render", timings.renderMilliseconds), ("encode", timings.encodeMilliseconds)]
            .map { name, milliseconds in "\(name);dur=\((milliseconds * 10).rounded() / 10)" }
            .joined(separator: ", ")
    }
}
