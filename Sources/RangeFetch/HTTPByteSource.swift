import AsyncHTTPClient
import Foundation
import MP4Box
import NIOCore
import NIOHTTP1
import NIOPosix

/// A byte source over an http(s) URL, read with range GETs.
///
/// Never sends HEAD (presigned URLs refuse it): the length comes from the
/// first response's Content-Range. The first response's ETag (or
/// Last-Modified) is sent as If-Range on every later request, so a file
/// replaced mid-way is noticed. From a server that ignores Range, a body of at most
/// `maximumKeptBodyBytes` is read whole once and kept (later reads cost nothing, and
/// every byte sent is counted); a longer one is read only as far as needed. Resets, timeouts and 502/503/504 are retried with backoff.
/// Redirects are followed here (not by the client), within `maximumRedirects` and
/// `allowsRedirect`, and later reads go straight to where they led.
public final class HTTPByteSource: ByteSource {
    /// The URL.
    public let url: String
    /// The options.
    public let options: HTTPFetchOptions
    /// The client the requests go through.
    public let client: RangeFetchClient
    let ledger: FetchLedger
    private let connectionsAtStart: Int?

    /// A source for `url`. `knownLength` and `validator` (from a cache) let it skip learning them again.
    /// Without `client`, the shared client with the options' timeouts is used.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil,
                knownLength: UInt64? = nil, validator: Validator? = nil) throws {
        guard Self.isHTTP(url) else {
            throw FetchError(.unsupportedURL, url: url, "only http and https urls can be read")
        }
        self.url = url
        self.options = options
        let client = client ?? .shared(for: options)
        self.client = client
        ledger = FetchLedger(options: options, length: knownLength, validator: validator)
        connectionsAtStart = client.connectionsOpened
    }

    /// A source for `url` that starts from what an earlier source of it learnt (its `KnownVersion`): the length,
    /// and the validator read back from its `version`, sent as If-Range so another version is refused.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public convenience init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil,
                            known: KnownVersion?) throws {
        try self.init(url: url, options: options, client: client, knownLength: known?.length,
                      validator: known?.version.flatMap { Validator(headerLines: $0) })
    }

    public var knownLength: UInt64? { get async { await ledger.length } }

    public var inputName: String? { url }

    /// Ranges this many bytes apart or less are worth one request rather than two round trips.
    public var coalescingGap: UInt64 { 64 * 1024 }

    /// What fetching has cost so far: every request, retry and body byte received.
    public var statistics: FetchStats? {
        get async {
            var stats = await ledger.stats
            if let now = client.connectionsOpened, let start = connectionsAtStart {
                stats.connectionsOpened = now - start
            } else {
                stats.connectionsOpened = nil
            }
            return stats
        }
    }

    /// The validator (ETag, Last-Modified) of the resource, once a response has given one.
    public var validator: Validator? { get async { await ledger.validator } }

    /// The validator and length, once a response has given a validator: its header lines
    /// (`Validator.headerLines`) and `Length: <bytes or ?>`. `init(url:options:client:known:)` reads it back.
    public var version: String? {
        get async {
            guard let validator = await ledger.validator else { return nil }
            return validator.headerLines + "\nLength: \(await ledger.length.map(String.init) ?? "?")"
        }
    }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        // No file has bytes past the largest file offset; clamping there keeps every count an Int.
        guard range.lowerBound < .maximumFileOffset else { return [] }
        var range = range.lowerBound..<min(range.upperBound, .maximumFileOffset)
        if let length = await ledger.length {
            if range.lowerBound >= length { return [] }
            range = range.lowerBound..<min(range.upperBound, length)
        }
        if range.isEmpty { return [] }
        if let body = await ledger.wholeBody {
            return Self.bytes(range, of: body)
        }
        return try await withRetries(range: range) { try await self.fetch(.bounded(range), attempt: $0) }.bytes
    }

    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        // With the restart policy the resource may change under the read: then the suffix is the new version's,
        // asked for once more; a resource that changes again is refused.
        var changes = 0
        if let body = await ledger.wholeBody {
            let tail = Self.suffix(count, of: body)
            return (tail.bytes, tail.offset)
        }
        while let length = await ledger.length {
            let start = length - min(length, count)
            let bytes = try await read(start..<length)
            if await ledger.length == length { return (bytes, start) }
            changes += 1
            if changes > 1 {
                throw FetchError(.resourceChanged, url: url, range: start..<length, "the resource changed twice while its end was read")
            }
        }
        let result = try await withRetries(range: nil) { try await self.fetch(.suffix(count), attempt: $0) }
        return (result.bytes, result.offset)
    }

    /// The head and the tail in one request (`Range: bytes=0-h,-t`): a server that answers several ranges at once
    /// (`multipart/byteranges`, as nginx does) sends both; one that answers with the first range alone, or with the
    /// whole resource, costs the tail a second request once the head has shown the length (none when the whole
    /// resource was kept).
    public func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        let head = min(head, .maximumFileOffset)
        if let body = await ledger.wholeBody {
            return Self.ends(head: head, tail: tail, of: body)
        }
        let known = await ledger.length
        if tail == 0 || known.map({ $0 <= head.saturatingAdd(tail) }) == true {
            let bytes = try await read(0..<(known ?? head))
            let length = await ledger.length ?? (UInt64(bytes.count) < head ? UInt64(bytes.count) : nil)
            return FileEnds(head: bytes, tail: [], tailOffset: UInt64(bytes.count), length: length)
        }
        guard head > 0 else {
            let last = try await readSuffix(tail)
            return FileEnds(head: [], tail: last.bytes, tailOffset: last.offset, length: last.offset + UInt64(last.bytes.count))
        }
        let fetched = try await withRetries(range: 0..<head) { try await self.fetch(.ends(head: head, tail: tail, length: known), attempt: $0) }
        if let body = await ledger.wholeBody {
            return Self.ends(head: head, tail: tail, of: body)
        }
        let length = await ledger.length
        if let ending = fetched.tail {
            return FileEnds(head: fetched.bytes, tail: ending.bytes, tailOffset: ending.offset, length: length)
        }
        guard let length, UInt64(fetched.bytes.count) < length else {
            return FileEnds(head: fetched.bytes, tail: [], tailOffset: UInt64(fetched.bytes.count), length: length)
        }
        // The server sent the head alone: the tail now that the length is known.
        let start = max(UInt64(fetched.bytes.count), length - min(length, tail))
        let last = try await read(start..<length)
        return FileEnds(head: fetched.bytes, tail: last, tailOffset: start, length: length)
    }

    /// The ends of a whole resource kept in memory (all of it as the head when it is no longer than both).
    static func ends(head: UInt64, tail: UInt64, of body: [UInt8]) -> FileEnds {
        if UInt64(body.count) <= head.saturatingAdd(tail) {
            return FileEnds(head: body, tail: [], tailOffset: UInt64(body.count), length: UInt64(body.count))
        }
        let first = bytes(0..<head, of: body)
        let last = suffix(tail, of: body)
        return FileEnds(head: first, tail: last.bytes, tailOffset: last.offset, length: UInt64(body.count))
    }

    // MARK: - One request

    enum RangeSpec {
        case bounded(Range<UInt64>)
        case suffix(UInt64)
        /// The first `head` bytes and the last `tail` bytes (the length, when known, names the tail's first byte).
        case ends(head: UInt64, tail: UInt64, length: UInt64?)
        /// Several ranges, ascending and apart, none empty.
        case several([Range<UInt64>])

        var header: String {
            switch self {
            case .bounded(let range): "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
            case .suffix(let count): "bytes=-\(count)"
            case .ends(let head, let tail, let length?): "bytes=0-\(head - 1),\(length - tail)-\(length - 1)"
            case .ends(let head, let tail, nil): "bytes=0-\(head - 1),-\(tail)"
            case .several(let ranges): "bytes=" + ranges.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")
            }
        }

        /// What a response of one range or of the whole resource answers: a bounded range, the suffix, or for the ends
        /// the head (the tail is asked for again, or taken from a whole resource kept).
        enum Answer {
            case bounded(Range<UInt64>)
            case suffix(UInt64)
        }

        var answeredWhole: Answer {
            switch self {
            case .bounded(let range): .bounded(range)
            case .suffix(let count): .suffix(count)
            case .ends(let head, _, _): .bounded(0..<head)
            case .several(let ranges): .bounded(ranges[0])
            }
        }

        /// Whether the ranges asked for add up to a resource of `length` bytes or more (a whole answer is then no
        /// Range ignored: nginx answers so).
        func asksForAll(length: UInt64) -> Bool {
            switch self {
            case .ends(let head, let tail, _): length <= head.saturatingAdd(tail)
            case .several(let ranges): length <= ranges.reduce(0) { $0.saturatingAdd(UInt64($1.count)) }
            case .bounded, .suffix: false
            }
        }

        var isEnds: Bool {
            if case .ends = self { return true }
            return false
        }

        /// Whether it asks for more than one range (a 206 may then be multipart, or one range merging several).
        var isMultiple: Bool {
            switch self {
            case .ends, .several: true
            case .bounded, .suffix: false
            }
        }

        /// The range checked against budgets and named in errors: for the ends, the head.
        var range: Range<UInt64>? {
            switch self {
            case .bounded(let range): range
            case .ends(let head, _, _): 0..<head
            case .several(let ranges): ranges[0].lowerBound..<ranges[ranges.count - 1].upperBound
            case .suffix: nil
            }
        }
    }

    struct Fetched {
        var bytes: [UInt8]
        var offset: UInt64
        /// The last bytes of the resource and their offset, when a request for the ends brought them.
        var tail: (bytes: [UInt8], offset: UInt64)?
        /// The parts of a multipart answer to a request for several ranges, with their offsets.
        var parts: [(offset: UInt64, bytes: [UInt8])] = []
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
                await ledger.noteRetry()
                let delay = options.retryBackoff * Double(1 << min(attempt - 1, 10))
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        }
    }

    func fetch(_ spec: RangeSpec, attempt: Int) async throws -> Fetched {
        let started = try await ledger.begin(url: url, range: spec.range)
        let record = RequestRecord(spec: spec, attempt: attempt)
        do {
            let result = try await perform(spec, record: record)
            await ledger.end(record.entry, started: started, firstByte: record.firstByte)
            return result
        } catch {
            await ledger.end(record.entry, started: started, firstByte: record.firstByte)
            throw error
        }
    }

    /// Sends one request (following redirects) and reads its body, noting what happened in `record`.
    private func perform(_ spec: RangeSpec, record: RequestRecord) async throws -> Fetched {
        let range = spec.range
        var target = await ledger.redirectedURL ?? url
        var redirects = 0
        var response: HTTPClientResponse
        while true {
            response = try await send(spec, to: target, range: range)
            let code = response.status.code
            guard [301, 302, 303, 307, 308].contains(code) else { break }
            try await drain(response.body, range: range, record: record)
            redirects += 1
            guard redirects <= options.maximumRedirects else {
                throw FetchError(.redirectRefused, url: url, range: range, status: Int(code),
                                 "more than \(options.maximumRedirects) redirects")
            }
            guard let location = response.headers.first(name: "Location"), let next = Self.resolve(location, against: target) else {
                throw FetchError(.redirectRefused, url: url, range: range, status: Int(code), "redirect without a usable location")
            }
            guard Self.isHTTP(next), options.allowsRedirect?(next) ?? true else {
                throw FetchError(.redirectRefused, url: url, range: range, status: Int(code), "redirect to \(next) not allowed")
            }
            target = next
        }
        if redirects > 0 { await ledger.noteRedirect(to: target) }
        client.connections.noteResponse()
        record.firstByte = ContinuousClock.now
        record.entry.status = Int(response.status.code)
        let seen = Validator(etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        switch response.status.code {
        case 206:
            if spec.isMultiple, let boundary = response.headers.first(name: "Content-Type").flatMap(MultipartByteRanges.boundary(contentType:)) {
                if spec.isEnds {
                    return try await collectEnds(response, boundary: boundary, spec: spec, validator: seen, record: record)
                }
                return try await collectParts(response, boundary: boundary, spec: spec, validator: seen, record: record)
            }
            guard let header = response.headers.first(name: "Content-Range"), let contentRange = ContentRange(header) else {
                throw FetchError(.invalidResponse, url: url, range: range, status: 206, "206 without a usable content-range")
            }
            switch spec.answeredWhole {
            case .bounded(let asked):
                // For the ends, a server may also merge both ranges into one that runs to the end; several ranges, into
                // one that reaches into the later ones.
                let merged = spec.isEnds ? contentRange.completeLength == contentRange.last + 1
                    : spec.isMultiple && contentRange.last < (spec.range?.upperBound ?? 0)
                guard contentRange.first == asked.lowerBound, contentRange.last < asked.upperBound || merged else {
                    throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                                     "content-range \(header) does not match the request")
                }
            case .suffix(let count):
                guard UInt64(contentRange.range.count) <= count,
                      contentRange.completeLength.map({ contentRange.last == $0 - 1 }) ?? true else {
                    throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                                     "content-range \(header) is not the last \(count) bytes")
                }
            }
            try await checkChange(validator: seen, length: contentRange.completeLength, range: range, status: 206)
            let expected = contentRange.range.count
            try await ledger.checkBytes(url: url, range: range, adding: UInt64(expected))
            let bytes = try await collect(response.body, skip: 0, take: expected, exact: true, range: range, record: record)
            return Fetched(bytes: bytes, offset: contentRange.first)
        case 200:
            // The whole resource: its Content-Length is its length, and one that differs from the length learnt
            // is another version, as a different validator is.
            let contentLength = response.headers.first(name: "Content-Length").flatMap { UInt64($0) }
                .flatMap { $0 <= .maximumFileOffset ? $0 : nil }
            try await checkChange(validator: seen, length: contentLength, range: range, status: 200)
            // Ends that together cover the resource may rightly come back whole (nginx answers so): not ignored.
            if !(contentLength.map(spec.asksForAll(length:)) ?? false) { await ledger.noteIgnoredRange() }
            switch spec.answeredWhole {
            case .bounded(let asked):
                if contentLength.map({ $0 <= options.maximumKeptBodyBytes }) ?? true {
                    let (body, complete) = try await collectWhole(response.body, announced: contentLength,
                                                                  needed: asked.upperBound, range: range, record: record)
                    if complete {
                        // Without a Content-Length the body's own length is the resource's: checked like one.
                        if contentLength == nil {
                            try await checkChange(validator: seen, length: UInt64(body.count), range: range, status: 200)
                        }
                        await ledger.keep(wholeBody: body)
                    }
                    return Fetched(bytes: Self.bytes(asked, of: body), offset: asked.lowerBound)
                }
                try await ledger.checkBytes(url: url, range: range, adding: UInt64(asked.count))
                let bytes = try await collect(response.body, skip: asked.lowerBound, take: asked.count, exact: false,
                                              range: range, record: record)
                // Where the announced length says the range holds more, the body ended early.
                let end = min(asked.upperBound, contentLength ?? asked.lowerBound)
                if end > asked.lowerBound, UInt64(bytes.count) < end - asked.lowerBound {
                    throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: 200,
                                                      "body ended before byte \(end) of the \(contentLength ?? 0) announced"))
                }
                return Fetched(bytes: bytes, offset: asked.lowerBound)
            case .suffix(let count):
                if let contentLength, contentLength <= options.maximumKeptBodyBytes {
                    let (body, _) = try await collectWhole(response.body, announced: contentLength, needed: contentLength,
                                                           range: nil, record: record)
                    await ledger.keep(wholeBody: body)
                    return Self.suffix(count, of: body)
                }
                let (bytes, total) = try await collectTail(response.body, count: Int(min(count, UInt64(Int.max))), record: record)
                if let contentLength, total != contentLength {
                    let final = FetchError(total < contentLength ? .truncatedBody : .bodyTooLong, url: url, range: range,
                                           status: 200, "body of \(total) bytes where \(contentLength) were announced")
                    if total < contentLength { throw Retryable(final: final) }
                    throw final
                }
                if contentLength == nil { try await checkChange(validator: seen, length: total, range: range, status: 200) }
                await ledger.learn(length: total)
                return Fetched(bytes: bytes, offset: total - UInt64(bytes.count))
            }
        case 416:
            // `bytes */length`: a range past the end (a suffix only when the resource is empty). Its length, like a
            // 200's, is the resource's: another one than learnt is a change.
            if let header = response.headers.first(name: "Content-Range"), let length = ContentRange.unsatisfiedLength(header) {
                try await checkChange(validator: seen, length: length, range: range, status: 416)
                if let range, range.lowerBound >= length { return Fetched(bytes: [], offset: length) }
                if case .suffix = spec, length == 0 { return Fetched(bytes: [], offset: 0) }
            }
            throw FetchError(.rangeNotSatisfiable, url: url, range: range, status: 416, "range not satisfiable")
        case 404, 410:
            throw FetchError(.notFound, url: url, range: range, status: Int(response.status.code), "not found (\(response.status.code))")
        case 401, 403:
            throw FetchError(.forbidden, url: url, range: range, status: Int(response.status.code), "access denied (\(response.status.code))")
        case 412:
            throw FetchError(.resourceChanged, url: url, range: range, status: 412, "the resource changed (precondition failed)")
        case 502, 503, 504:
            throw Retryable(final: FetchError(.serverError, url: url, range: range, status: Int(response.status.code),
                                              "server error \(response.status.code) after \(options.maximumRetries) retries"))
        case 500...599:
            throw FetchError(.serverError, url: url, range: range, status: Int(response.status.code), "server error \(response.status.code)")
        case 400...499:
            throw FetchError(.clientError, url: url, range: range, status: Int(response.status.code), "request refused (\(response.status.code))")
        default:
            throw FetchError(.invalidResponse, url: url, range: range, status: Int(response.status.code),
                             "unexpected status \(response.status.code)")
        }
    }

    /// Sends the GET for `spec` to `target`, with the caller's headers (credentials only to the origin asked for).
    private func send(_ spec: RangeSpec, to target: String, range: Range<UInt64>?) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: target)
        request.method = .GET
        request.headers.add(name: "Range", value: spec.header)
        request.headers.add(name: "Accept-Encoding", value: "identity")
        if let ifRange = await ledger.validator?.ifRangeValue {
            request.headers.add(name: "If-Range", value: ifRange)
        }
        let sameOrigin = Self.origin(of: target) == Self.origin(of: url)
        for (name, value) in options.headers where sameOrigin || !Self.credentialHeaders.contains(name.lowercased()) {
            request.headers.add(name: name, value: value)
        }
        // The client's read timeout bounds each wait for the connection; the deadline, if any, bounds the head.
        // Without one, an hour stands for "no deadline" (AsyncHTTPClient needs one; reads time out long before).
        let seconds = await ledger.secondsLeft() ?? 3600
        do {
            return try await client.transport.execute(request, timeout: .milliseconds(Int64(seconds * 1000)))
        } catch {
            throw classify(error, range: range, partial: nil)
        }
    }

    /// Headers that carry credentials: never sent on to another origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    static func isHTTP(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Scheme, host and port (the default port when none is written).
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased() else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// `location` resolved against the URL that answered with it.
    static func resolve(_ location: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let resolved = URL(string: location.trimmingWhitespace(), relativeTo: baseURL) else {
            return nil
        }
        return resolved.absoluteString
    }

    /// Throws `resourceChanged` (or adopts the new version, by policy) when a response shows another version.
    func checkChange(validator seen: Validator?, length: UInt64?, range: Range<UInt64>?, status: Int) async throws {
        guard await ledger.observe(validator: seen, length: length) else { return }
        switch options.changePolicy {
        case .fail:
            let was = await ledger.validator?.description ?? "-"
            throw FetchError(.resourceChanged, url: url, range: range, status: status,
                             "the resource changed (validator \(was) became \(seen?.description ?? "-"))")
        case .restart:
            await ledger.adopt(validator: seen, length: length)
        }
    }

    /// Maps a transport error to a retryable failure or a final `FetchError`.
    func classify(_ error: any Error, range: Range<UInt64>?, partial: Int?) -> any Error {
        if error is CancellationError { return error }
        if let fetchError = error as? FetchError { return fetchError }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout, .readTimeout, .deadlineExceeded:
                return Retryable(final: FetchError(.timedOut, url: url, range: range, "timed out (\(clientError))"))
            case .cancelled:
                return CancellationError()
            default:
                break
            }
        }
        let detail = String(describing: error)
        if let partial {
            return Retryable(final: FetchError(.truncatedBody, url: url, range: range,
                                               "the connection failed after \(partial) body bytes: \(detail)"))
        }
        let (code, what) = Self.connectionFailure(error)
        // A failure we can name is said plainly; another keeps the transport's own words.
        return Retryable(final: FetchError(code, url: url, range: range, code == .connectionFailed ? "\(what): \(detail)" : what))
    }

    /// What kind of connection failure `error` is (refused, reset, timed out, or another), in words with the errno.
    static func connectionFailure(_ error: any Error) -> (FetchError.Code, String) {
        let errno: CInt? = if let io = error as? IOError {
            io.errnoCode
        } else if let connection = error as? NIOConnectionError {
            connection.connectionErrors.lazy.compactMap { ($0.error as? IOError)?.errnoCode }.first
        } else {
            nil
        }
        switch errno {
        case ECONNREFUSED?: return (.connectionRefused, "the connection was refused (errno \(ECONNREFUSED))")
        case ECONNRESET?, EPIPE?, ECONNABORTED?: return (.connectionReset, "the connection was reset (errno \(errno ?? 0))")
        case ETIMEDOUT?: return (.timedOut, "the connection timed out (errno \(ETIMEDOUT))")
        default: break
        }
        if let clientError = error as? HTTPClientError, clientError == .remoteConnectionClosed {
            return (.connectionReset, "the server closed the connection")
        }
        return (.connectionFailed, "the connection failed")
    }
}

/// What one request did, filled in as it goes; owned by the task that sends the request.
final class RequestRecord {
    var entry: FetchStats.Request
    var firstByte: ContinuousClock.Instant?

    init(spec: HTTPByteSource.RangeSpec, attempt: Int) {
        // For several ranges: from the first byte of the first to the end of the last.
        var suffix: UInt64?
        if case .suffix(let count) = spec { suffix = count }
        entry = FetchStats.Request(start: spec.range?.lowerBound ?? 0, end: spec.range?.upperBound, suffixLength: suffix,
                                   status: 0, bytes: 0, milliseconds: 0, firstByteMilliseconds: 0, attempt: attempt)
    }
}
