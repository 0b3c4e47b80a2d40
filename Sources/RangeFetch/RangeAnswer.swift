import NIOHTTP1

/// What the answer to a range request means, decided from what was asked, the status and the headers alone: no
/// body, no transport, no state. `HTTPByteSource` reads the body as the action says; the tests and the HTTP fuzz
/// target drive it with every kind of origin (multipart, one range at a time, several ranges refused, Range
/// ignored, the length never told).
struct RangeAnswer: Equatable {
    /// What to do with the response.
    enum Action: Equatable {
        /// A redirect, to its `Location`.
        case redirect(location: String?)
        /// A 206 of one range: exactly its bytes follow.
        case range(ContentRange)
        /// A 206 `multipart/byteranges` body with this boundary.
        case parts(boundary: String)
        /// A 200 with the whole resource, read to its end and kept: a single range answered so (the origin ignores
        /// Range), or everything was asked for.
        case keepWhole
        /// A 200 with the whole resource, too long to keep: only the bytes of the range are read, then it stops.
        case window(Range<UInt64>)
        /// A 200 with the whole resource to a suffix, too long to keep: read to its end keeping its last bytes.
        case tailOfWhole(UInt64)
        /// A 200 with the whole resource to a request for several ranges (an origin that answers one range at a
        /// time, as object stores do): only its first bytes are read, up to the end of the ranges that lie near its
        /// start, then it stops; the rest is asked for separately.
        case prefix(UInt64)
        /// Nothing to read: what was asked is asked for again separately (several ranges refused with 416; a tail
        /// beside the head answered with 200 or 416: the head's answer shows the length).
        case askSeparately
        /// A 416 for a range that starts at or past the end: no bytes, and the resource's length.
        case pastEnd(length: UInt64)
        /// A failure; another attempt may succeed when `retryable`.
        case fail(FetchError.Code, detail: String, retryable: Bool)
    }

    /// What to do with the response.
    var action: Action
    /// What the answer shows about the origin: that it answers several ranges at once (true) or one at a time
    /// (false); nil when it shows neither.
    var answersMultipart: Bool?
    /// The resource's length as the headers state it (a 206's complete length, a 200's Content-Length, a 416's
    /// `bytes */length`).
    var length: UInt64?
    /// Whether the server ignored the Range header (a 200 where less than the whole resource was asked for).
    var ignoredRange = false

    /// Decides what the answer with `status` and `headers` to `spec` means.
    /// - Parameters:
    ///   - maximumKeptBodyBytes: the longest whole body kept (`HTTPFetchOptions.maximumKeptBodyBytes`).
    ///   - leadingGap: how far apart the ranges read from the start of a whole body may lie (the source's
    ///     coalescing gap): the first farther than this from the start, or from the range before it, ends the read.
    static func decide(_ spec: RangeSpec, status: Int, headers: HTTPHeaders, maximumKeptBodyBytes: UInt64,
                       leadingGap: UInt64) -> RangeAnswer {
        var answer = decideByStatus(spec, status: status, headers: headers, maximumKeptBodyBytes: maximumKeptBodyBytes,
                                    leadingGap: leadingGap)
        if answer.answersMultipart == nil, objectStoreHeaders.contains(where: { headers.contains(name: $0) }) {
            answer.answersMultipart = false
        }
        return answer
    }

    /// Headers only object stores send, none of which answers several ranges at once: Amazon S3's request ID,
    /// Google Cloud Storage's object generation, Azure Blob's and Alibaba OSS's request IDs. Any answer with one shows
    /// an origin to ask one range a request, without a request for several to learn it.
    static let objectStoreHeaders = ["x-amz-request-id", "x-goog-generation", "x-ms-request-id", "x-oss-request-id"]

    private static func decideByStatus(_ spec: RangeSpec, status: Int, headers: HTTPHeaders, maximumKeptBodyBytes: UInt64,
                                       leadingGap: UInt64) -> RangeAnswer {
        switch status {
        case 206:
            return partial(spec, headers: headers)
        case 200:
            let contentLength = headers.first(name: "Content-Length").flatMap { UInt64($0) }.flatMap { $0 <= .maximumFileOffset ? $0 : nil }
            return whole(spec, contentLength: contentLength, maximumKeptBodyBytes: maximumKeptBodyBytes, leadingGap: leadingGap)
        case 416:
            return unsatisfiable(spec, length: headers.first(name: "Content-Range").flatMap(ContentRange.unsatisfiedLength))
        case 301, 302, 303, 307, 308:
            return RangeAnswer(action: .redirect(location: headers.first(name: "Location")))
        case 404, 410:
            return failure(.notFound, "not found (\(status))")
        case 401, 403:
            return failure(.forbidden, "access denied (\(status))")
        case 412:
            return failure(.resourceChanged, "the resource changed (precondition failed)")
        case 502, 503, 504:
            return RangeAnswer(action: .fail(.serverError, detail: "server error \(status)", retryable: true))
        case 500...599:
            return failure(.serverError, "server error \(status)")
        case 400...499:
            return failure(.clientError, "request refused (\(status))")
        default:
            return failure(.invalidResponse, "unexpected status \(status)")
        }
    }

    private static func failure(_ code: FetchError.Code, _ detail: String) -> RangeAnswer {
        RangeAnswer(action: .fail(code, detail: detail, retryable: false))
    }

    /// A 206: multipart to a request for several ranges, else one range that must be (or start) what was asked.
    private static func partial(_ spec: RangeSpec, headers: HTTPHeaders) -> RangeAnswer {
        if spec.isMultiple, let boundary = headers.first(name: "Content-Type").flatMap(MultipartByteRanges.boundary(contentType:)) {
            return RangeAnswer(action: .parts(boundary: boundary), answersMultipart: true)
        }
        guard let header = headers.first(name: "Content-Range"), let contentRange = ContentRange(header) else {
            return failure(.invalidResponse, "206 without a usable content-range")
        }
        let mismatch = failure(.contentRangeMismatch, "content-range \(header) does not match the request")
        var answer = RangeAnswer(action: .range(contentRange), length: contentRange.completeLength)
        switch spec {
        case .bounded(let asked):
            guard contentRange.first == asked.lowerBound, contentRange.last < asked.upperBound else { return mismatch }
        case .suffix(let count), .tailBesideHead(let count):
            guard UInt64(contentRange.range.count) <= count,
                  contentRange.completeLength.map({ contentRange.last == $0 - 1 }) ?? true else {
                return failure(.contentRangeMismatch, "content-range \(header) is not the last \(count) bytes")
            }
        case .ends(let head, _, _):
            // One range: the head alone (one range at a time), or both merged into one that runs to the end.
            let merged = contentRange.completeLength == contentRange.last + 1
            guard contentRange.first == 0, contentRange.last < head || merged else { return mismatch }
            if contentRange.last < head { answer.answersMultipart = false }
        case .several(let ranges):
            // One range: the first alone, or one merging several that ends within what was asked.
            guard contentRange.first == ranges[0].lowerBound, contentRange.last < ranges[ranges.count - 1].upperBound else {
                return mismatch
            }
            if contentRange.last < ranges[0].upperBound { answer.answersMultipart = false }
        }
        return answer
    }

    /// A 200: the whole resource. Kept when a single range (or everything) was asked for and it is short enough;
    /// to several ranges, read only at its start.
    private static func whole(_ spec: RangeSpec, contentLength: UInt64?, maximumKeptBodyBytes: UInt64,
                              leadingGap: UInt64) -> RangeAnswer {
        let all = contentLength.map(spec.asksForAll(length:)) ?? false
        let keepable = contentLength.map { $0 <= maximumKeptBodyBytes } ?? true
        var answer = RangeAnswer(action: .keepWhole, length: contentLength, ignoredRange: !all)
        if all && keepable { return answer }
        switch spec {
        case .bounded(let asked):
            if !keepable { answer.action = .window(asked) }
        case .suffix(let count):
            if !keepable || contentLength == nil { answer.action = .tailOfWhole(count) }
        case .tailBesideHead:
            // A server that refuses suffix ranges may send everything: the head's answer tells what to do.
            answer.action = .askSeparately
        case .ends(let head, _, _):
            answer.action = .prefix(head)
            answer.answersMultipart = false
        case .several(let ranges):
            answer.action = .prefix(leadingEnd(of: ranges, gap: leadingGap))
            answer.answersMultipart = false
        }
        return answer
    }

    /// The end of the ranges worth reading from the start of a whole resource: the longest run of them from the
    /// first in which no gap (nor the bytes before the first) is wider than `gap`, and all the bytes read that no
    /// range asked for are at most a twentieth of those asked for (or 4 KiB); 0 when even the first is not worth it.
    /// The ranges left out cost a round trip whether or not some are read here, so the bytes between them are worth
    /// reading only where they are few.
    static func leadingEnd(of ranges: [Range<UInt64>], gap: UInt64) -> UInt64 {
        var end: UInt64 = 0
        var wanted: UInt64 = 0
        var unwanted: UInt64 = 0
        var worth: UInt64 = 0
        for range in ranges {
            guard range.lowerBound <= end.saturatingAdd(gap) else { break }
            unwanted += range.lowerBound > end ? range.lowerBound - end : 0
            wanted += range.upperBound > max(end, range.lowerBound) ? range.upperBound - max(end, range.lowerBound) : 0
            end = max(end, range.upperBound)
            if unwanted <= max(Self.unwantedAllowance, wanted / 20) { worth = end }
        }
        return worth
    }

    /// Bytes not asked for that may be read from the start of a whole resource however few were asked for: about a
    /// packet or two, what a response's first read brings anyway.
    static let unwantedAllowance: UInt64 = 4096

    /// A 416: a range past the end (with the length it names), or several ranges (or a suffix beside the head)
    /// refused.
    private static func unsatisfiable(_ spec: RangeSpec, length: UInt64?) -> RangeAnswer {
        var answer = RangeAnswer(action: .fail(.rangeNotSatisfiable, detail: "range not satisfiable", retryable: false),
                                 length: length)
        switch spec {
        case .bounded(let range):
            if let length, range.lowerBound >= length { answer.action = .pastEnd(length: length) }
        case .suffix:
            if length == 0 { answer.action = .pastEnd(length: 0) }
        case .tailBesideHead:
            answer.action = .askSeparately
        case .ends, .several:
            if let length, spec.boundedRanges.allSatisfy({ $0.lowerBound >= length }) {
                answer.action = .pastEnd(length: length)
            } else {
                answer.action = .askSeparately
                answer.answersMultipart = false
            }
        }
        return answer
    }
}
