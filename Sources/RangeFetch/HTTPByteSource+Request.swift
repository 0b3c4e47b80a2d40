import AsyncHTTPClient
import ByteSources
import NIOCore

/// One request: sent with retries, its redirects followed, its answer decided (`RangeAnswer`) and its body read as
/// the answer says, never further than the bytes it is asked for.
extension HTTPByteSource {
    struct Fetched {
        var bytes: [UInt8]
        var offset: UInt64
        /// The last bytes of the resource and their offset, when a request for the ends brought them.
        var tail: (bytes: [UInt8], offset: UInt64)?
        /// The parts of a multipart answer to a request for several ranges, with their offsets.
        var parts: [(offset: UInt64, bytes: [UInt8])] = []
        /// Whether what was asked (or what `bytes` lack of it) is to be asked for separately: several ranges
        /// refused, or answered with the whole resource and read at its start only.
        var separately = false
    }

    /// A failure worth another attempt, with what to throw when attempts run out.
    struct Retryable: Error {
        var final: FetchError
    }

    func withRetries(range: Range<UInt64>?, _ body: (Int) async throws -> Fetched) async throws -> Fetched {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await body(attempt)
            } catch let retryable as Retryable {
                guard attempt <= options.maximumRetries else { throw retryable.final }
                try Task.checkCancellation()
                ledger.noteRetry()
                try await Task.sleep(for: options.retryBackoff * (1 << min(attempt - 1, 10)))
            }
        }
    }

    /// Runs `body`, whose requests go side by side: they count as one round trip.
    func sideBySide<Result>(_ body: () async throws -> Result) async throws -> Result {
        let round = ledger.beginSideBySide()
        defer { round.end() }
        return try await body()
    }

    /// One request for `spec`; with `delivery`, the bytes of a range answered as such are handed over as they arrive
    /// instead of collected.
    func fetch(_ spec: RangeSpec, attempt: Int, delivery: Delivery? = nil) async throws -> Fetched {
        let request = try ledger.begin(url: url, range: spec.range)
        let record = RequestRecord(spec: spec, attempt: attempt)
        defer { request.end(record.entry, firstByte: record.firstByte) }
        return try await perform(spec, record: record, delivery: delivery)
    }

    /// Sends one request (following redirects), decides what its answer means and reads its body accordingly,
    /// noting what happened in `record` and what the origin showed in the client's `rangeSupport`.
    private func perform(_ spec: RangeSpec, record: RequestRecord, delivery: Delivery?) async throws -> Fetched {
        let range = spec.range
        var target = ledger.redirectedURL ?? url
        var redirects = 0
        var response: HTTPClientResponse
        var answer: RangeAnswer
        while true {
            response = try await send(spec, to: target, range: range)
            answer = RangeAnswer.decide(spec, status: Int(response.status.code), headers: response.headers,
                                        maximumKeptBodyBytes: options.maximumKeptBodyBytes, leadingGap: coalescingGap)
            guard case .redirect(let location) = answer.action else { break }
            let code = Int(response.status.code)
            try await drain(response.body, range: range, record: record)
            redirects += 1
            guard redirects <= options.maximumRedirects else {
                throw FetchError(.redirectRefused, url: url, range: range, status: code, "more than \(options.maximumRedirects) redirects")
            }
            guard let location, let next = Self.resolve(location, against: target) else {
                throw FetchError(.redirectRefused, url: url, range: range, status: code, "redirect without a usable location")
            }
            guard Self.isHTTP(next), options.allowsRedirect?(next) ?? true else {
                throw FetchError(.redirectRefused, url: url, range: range, status: code, "redirect to \(URLRedaction.shown(next)) not allowed")
            }
            target = next
        }
        if redirects > 0 { ledger.noteRedirect(to: target) }
        client.connections.noteResponse()
        record.firstByte = ContinuousClock.now
        let status = Int(response.status.code)
        record.entry.status = status
        if let multipart = answer.answersMultipart {
            client.rangeSupport.remember(multipart ? .multipart : .oneRangeAtATime, for: target)
        }
        if answer.ignoredRange { ledger.noteIgnoredRange() }
        let seen = Validator(etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        switch answer.action {
        case .parts(let boundary):
            if case .ends = spec {
                return try await collectEnds(response, boundary: boundary, spec: spec, validator: seen, record: record)
            }
            return try await collectParts(response, boundary: boundary, spec: spec, validator: seen, record: record)
        case .range(let contentRange):
            try await checkChange(validator: seen, length: contentRange.completeLength, range: range, status: status)
            let expected = contentRange.range.count
            if let delivery {
                // Only what arrives counts against the budget: the reader may stop long before the end.
                try await deliver(response.body, skip: 0, take: expected, range: range, record: record, to: delivery)
                return Fetched(bytes: [], offset: contentRange.first)
            }
            try ledger.checkBytes(url: url, range: range, adding: UInt64(expected))
            let bytes = try await collect(response.body, skip: 0, take: expected, exact: true, range: range, record: record)
            return Fetched(bytes: bytes, offset: contentRange.first)
        case .keepWhole:
            try await checkChange(validator: seen, length: answer.length, range: range, status: status)
            return try await keepWhole(response, spec: spec, announced: answer.length, validator: seen, record: record)
        case .window(let asked):
            try await checkChange(validator: seen, length: answer.length, range: range, status: status)
            if let delivery {
                try await deliver(response.body, skip: asked.lowerBound, take: asked.count, range: asked, record: record,
                                  to: delivery, announced: answer.length)
                return Fetched(bytes: [], offset: asked.lowerBound)
            }
            return try await readWindow(asked, of: response, announced: answer.length, record: record)
        case .tailOfWhole(let count):
            try await checkChange(validator: seen, length: answer.length, range: range, status: status)
            return try await readTail(count, of: response, announced: answer.length, validator: seen, record: record)
        case .prefix(let end):
            try await checkChange(validator: seen, length: answer.length, range: range, status: status)
            return try await readPrefix(end, of: response, announced: answer.length, record: record)
        case .askSeparately:
            // A refusal's body is a few words (read to keep the connection); a whole resource is read only when it
            // is short enough to be on its way in full, else cut.
            if status != 200 {
                try await drain(response.body, range: range, record: record)
            } else if let length = answer.length, length <= Self.drainedBodyBytes {
                try await drain(response.body, range: range, record: record, limit: Int(length))
            }
            if status == 416, let length = answer.length {
                try await checkChange(validator: seen, length: length, range: range, status: status)
            }
            return Fetched(bytes: [], offset: 0, separately: true)
        case .pastEnd(let length):
            try await checkChange(validator: seen, length: length, range: range, status: status)
            return Fetched(bytes: [], offset: length)
        case .redirect:
            throw FetchError(.invalidResponse, url: url, range: range, status: status, "unexpected redirect")
        case .fail(let code, let detail, let retryable):
            // A 416's length, like a 200's, is the resource's: another one than learnt is a change.
            if status == 416, let length = answer.length {
                try await checkChange(validator: seen, length: length, range: range, status: status)
            }
            if retryable {
                throw Retryable(final: FetchError(code, url: url, range: range, status: status,
                                                  "\(detail) after \(options.maximumRetries) retries"))
            }
            throw FetchError(code, url: url, range: range, status: status, detail)
        }
    }

    /// A 200 with the whole resource, read to its end and kept (unless it grows past `maximumKeptBodyBytes` without
    /// a Content-Length: then only as far as the range asked for needs).
    private func keepWhole(_ response: HTTPClientResponse, spec: RangeSpec, announced: UInt64?, validator seen: Validator?,
                           record: RequestRecord) async throws -> Fetched {
        let range = spec.range
        let needed = spec.isSuffix ? (announced ?? .maximumFileOffset) : (range?.upperBound ?? 0)
        let (body, complete) = try await collectWhole(response.body, announced: announced, needed: needed, range: range,
                                                      record: record)
        if complete {
            // Without a Content-Length the body's own length is the resource's: checked like one.
            if announced == nil {
                try await checkChange(validator: seen, length: UInt64(body.count), range: range, status: 200)
            }
            ledger.keep(wholeBody: body)
        }
        if case .suffix(let count) = spec { return Self.suffix(count, of: body) }
        if case .tailBesideHead(let count) = spec { return Self.suffix(count, of: body) }
        let asked = range ?? 0..<0
        return Fetched(bytes: Self.bytes(asked, of: body), offset: asked.lowerBound)
    }

    /// The bytes of `asked` from a whole resource too long to keep: those before it are read and dropped.
    private func readWindow(_ asked: Range<UInt64>, of response: HTTPClientResponse, announced: UInt64?,
                            record: RequestRecord) async throws -> Fetched {
        try ledger.checkBytes(url: url, range: asked, adding: UInt64(asked.count))
        let bytes = try await collect(response.body, skip: asked.lowerBound, take: asked.count, exact: false,
                                      range: asked, record: record)
        try checkComplete(bytes.count, from: asked.lowerBound, to: asked.upperBound, announced: announced, range: asked)
        return Fetched(bytes: bytes, offset: asked.lowerBound)
    }

    /// The first `end` bytes of a whole resource sent for several ranges; the rest of it is never read.
    private func readPrefix(_ end: UInt64, of response: HTTPClientResponse, announced: UInt64?,
                            record: RequestRecord) async throws -> Fetched {
        guard end > 0 else { return Fetched(bytes: [], offset: 0, separately: true) }
        try ledger.checkBytes(url: url, range: 0..<end, adding: end)
        let bytes = try await collect(response.body, skip: 0, take: Int(end), exact: false, range: 0..<end, record: record)
        try checkComplete(bytes.count, from: 0, to: end, announced: announced, range: 0..<end)
        return Fetched(bytes: bytes, offset: 0, separately: true)
    }

    /// Throws (retryably) when a whole body whose announced length says `from..<to` holds more gave only `count`.
    private func checkComplete(_ count: Int, from start: UInt64, to end: UInt64, announced: UInt64?,
                               range: Range<UInt64>) throws {
        let last = min(end, announced ?? start)
        if last > start, UInt64(count) < last - start {
            throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: 200,
                                              "body ended before byte \(last) of the \(announced ?? 0) announced"))
        }
    }

    /// The last `count` bytes of a whole resource too long to keep (or of unknown length), read to its end.
    private func readTail(_ count: UInt64, of response: HTTPClientResponse, announced: UInt64?, validator seen: Validator?,
                          record: RequestRecord) async throws -> Fetched {
        let (bytes, total) = try await collectTail(response.body, count: Int(min(count, UInt64(Int.max))), record: record)
        if let announced, total != announced {
            let final = FetchError(total < announced ? .truncatedBody : .bodyTooLong, url: url, status: 200,
                                   "body of \(total) bytes where \(announced) were announced")
            if total < announced { throw Retryable(final: final) }
            throw final
        }
        if announced == nil { try await checkChange(validator: seen, length: total, range: nil, status: 200) }
        ledger.learn(length: total)
        return Fetched(bytes: bytes, offset: total - UInt64(bytes.count))
    }
}

/// What one request did, filled in as it goes; owned by the task that sends the request.
final class RequestRecord {
    var entry: FetchStats.Request
    var firstByte: ContinuousClock.Instant?

    init(spec: RangeSpec, attempt: Int) {
        // For several ranges: from the first byte of the first to the end of the last.
        var suffix: UInt64?
        if case .suffix(let count) = spec { suffix = count }
        if case .tailBesideHead(let count) = spec { suffix = count }
        entry = FetchStats.Request(start: spec.range?.lowerBound ?? 0, end: spec.range?.upperBound, suffixLength: suffix,
                                   status: 0, bytes: 0, attempt: attempt)
    }
}
