import AsyncHTTPClient
import Foundation
import MP4Box
import NIOCore
import NIOHTTP1

/// A byte source over an http(s) URL, read with range GETs.
///
/// Never sends HEAD (presigned URLs refuse it): the length comes from the
/// first response's Content-Range. The first response's ETag (or
/// Last-Modified) is sent as If-Range on every later request, so a file
/// replaced mid-way is noticed. Servers that ignore Range are read only as far
/// as needed. Resets, timeouts and 502/503/504 are retried with backoff.
public final class HTTPByteSource: ByteSource {
    /// The URL.
    public let url: String
    /// The options.
    public let options: HTTPFetchOptions
    private let client: RangeFetchClient
    private let ledger: FetchLedger
    private let connectionsAtStart: Int

    /// A source for `url`. `knownLength` and `validator` (from a cache) let it skip learning them again.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient = .shared,
                knownLength: UInt64? = nil, validator: Validator? = nil) throws {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw FetchError(.unsupportedURL, url: url, "only http and https urls can be read")
        }
        self.url = url
        self.options = options
        self.client = client
        ledger = FetchLedger(options: options, length: knownLength, validator: validator)
        connectionsAtStart = client.connectionsOpened
    }

    public var knownLength: UInt64? { get async { await ledger.length } }

    /// Ranges this many bytes apart or less are worth one request rather than two round trips.
    public var coalescingGap: UInt64 { 64 * 1024 }

    /// What fetching has cost so far.
    public var stats: FetchStats {
        get async {
            var stats = await ledger.stats
            stats.connectionsOpened = client.connectionsOpened - connectionsAtStart
            return stats
        }
    }

    /// The validator (ETag, Last-Modified) of the resource, once a response has given one.
    public var validator: Validator? { get async { await ledger.validator } }

    /// The validator and length, once a response has given them.
    public var version: String? {
        get async {
            guard let validator = await ledger.validator else { return nil }
            return "\(validator) \(await ledger.length.map(String.init) ?? "?") bytes"
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
        return try await withRetries(range: range) { try await self.fetch(.bounded(range), attempt: $0) }.bytes
    }

    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        if let length = await ledger.length {
            let start = length - min(length, count)
            return (try await read(start..<length), start)
        }
        let result = try await withRetries(range: nil) { try await self.fetch(.suffix(count), attempt: $0) }
        return (result.bytes, result.offset)
    }

    // MARK: - One request

    enum RangeSpec {
        case bounded(Range<UInt64>)
        case suffix(UInt64)

        var header: String {
            switch self {
            case .bounded(let range): "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
            case .suffix(let count): "bytes=-\(count)"
            }
        }

        var range: Range<UInt64>? {
            if case .bounded(let range) = self { return range }
            return nil
        }
    }

    struct Fetched {
        var bytes: [UInt8]
        var offset: UInt64
    }

    /// A failure worth another attempt, with what to throw when attempts run out.
    struct Retryable: Error {
        var final: FetchError
    }

    private func withRetries(range: Range<UInt64>?, _ body: (Int) async throws -> Fetched) async throws -> Fetched {
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

    private func fetch(_ spec: RangeSpec, attempt: Int) async throws -> Fetched {
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

    /// Sends one request and reads its body, noting what happened in `record`.
    private func perform(_ spec: RangeSpec, record: RequestRecord) async throws -> Fetched {
        let range = spec.range
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Range", value: spec.header)
        request.headers.add(name: "Accept-Encoding", value: "identity")
        if let ifRange = await ledger.validator?.ifRangeValue {
            request.headers.add(name: "If-Range", value: ifRange)
        }
        for (name, value) in options.headers { request.headers.add(name: name, value: value) }
        let timeout = min(await ledger.secondsLeft() ?? .infinity, max(options.readTimeout * 4, 60))
        let response: HTTPClientResponse
        do {
            response = try await client.httpClient.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        } catch {
            throw classify(error, range: range, partial: nil)
        }
        record.firstByte = Date()
        record.entry.status = Int(response.status.code)
        let seen = Validator(etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        switch response.status.code {
        case 206:
            guard let header = response.headers.first(name: "Content-Range"), let contentRange = ContentRange(header) else {
                throw FetchError(.invalidResponse, url: url, range: range, status: 206, "206 without a usable content-range")
            }
            switch spec {
            case .bounded(let asked):
                guard contentRange.first == asked.lowerBound, contentRange.last < asked.upperBound else {
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
            let contentLength = response.headers.first(name: "Content-Length").flatMap { UInt64($0) }
            if await ledger.validator != nil, await ledger.validator?.differs(from: seen) == true {
                try await checkChange(validator: seen, length: contentLength, range: range, status: 200)
            }
            await ledger.noteIgnoredRange()
            _ = await ledger.observe(validator: seen, length: contentLength)
            switch spec {
            case .bounded(let asked):
                try await ledger.checkBytes(url: url, range: range, adding: UInt64(asked.count))
                let bytes = try await collect(response.body, skip: asked.lowerBound, take: asked.count, exact: false,
                                              range: range, record: record)
                return Fetched(bytes: bytes, offset: asked.lowerBound)
            case .suffix(let count):
                let (bytes, total) = try await collectTail(response.body, count: Int(min(count, UInt64(Int.max))), record: record)
                await ledger.learn(length: total)
                return Fetched(bytes: bytes, offset: total - UInt64(bytes.count))
            }
        case 416:
            if let header = response.headers.first(name: "Content-Range"), let length = ContentRange.unsatisfiedLength(header) {
                await ledger.learn(length: length)
                if let range, range.lowerBound >= length { return Fetched(bytes: [], offset: length) }
                if case .suffix = spec { return Fetched(bytes: [], offset: length) }
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

    /// Throws `resourceChanged` (or adopts the new version, by policy) when a response shows another version.
    private func checkChange(validator seen: Validator?, length: UInt64?, range: Range<UInt64>?, status: Int) async throws {
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

    /// Reads `take` bytes after skipping `skip`, then stops reading. With `exact`, more or fewer is an error.
    private func collect(_ body: HTTPClientResponse.Body, skip: UInt64, take: Int, exact: Bool, range: Range<UInt64>?,
                         record: RequestRecord) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(take, 64 << 20))
        var skipped: UInt64 = 0
        do {
            for try await buffer in body {
                record.entry.bytes += UInt64(buffer.readableBytes)
                var view = buffer.readableBytesView[...]
                if skipped < skip {
                    let drop = Int(min(skip - skipped, UInt64(view.count)))
                    skipped += UInt64(drop)
                    view = view.dropFirst(drop)
                }
                if bytes.count + view.count > take {
                    if exact {
                        throw FetchError(.bodyTooLong, url: url, range: range, status: record.entry.status,
                                         "body runs past the \(take) bytes announced")
                    }
                    bytes.append(contentsOf: view.prefix(take - bytes.count))
                    return bytes  // enough: stop reading; the client closes the connection
                }
                bytes.append(contentsOf: view)
                if !exact && bytes.count == take { return bytes }
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw classify(error, range: range, partial: bytes.count)
        }
        if exact && bytes.count < take {
            throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: record.entry.status,
                                              "body ended after \(bytes.count) of \(take) bytes"))
        }
        return bytes
    }

    /// Reads a whole body keeping only its last `count` bytes; returns them and the body's length.
    private func collectTail(_ body: HTTPClientResponse.Body, count: Int, record: RequestRecord) async throws -> ([UInt8], UInt64) {
        var tail: [UInt8] = []
        var total: UInt64 = 0
        do {
            for try await buffer in body {
                record.entry.bytes += UInt64(buffer.readableBytes)
                total += UInt64(buffer.readableBytes)
                tail.append(contentsOf: buffer.readableBytesView)
                if tail.count > count * 2 + 65536 { tail.removeFirst(tail.count - count) }
            }
        } catch {
            throw classify(error, range: nil, partial: Int(total))
        }
        if tail.count > count { tail.removeFirst(tail.count - count) }
        return (tail, total)
    }

    /// Maps a transport error to a retryable failure or a final `FetchError`.
    private func classify(_ error: any Error, range: Range<UInt64>?, partial: Int?) -> any Error {
        if error is CancellationError { return error }
        if let fetchError = error as? FetchError { return fetchError }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout, .readTimeout, .deadlineExceeded:
                return Retryable(final: FetchError(.timedOut, url: url, range: range, "timed out (\(clientError))"))
            case .cancelled:
                return CancellationError()
            case .redirectCycleDetected, .redirectLimitReached:
                return FetchError(.invalidResponse, url: url, range: range, "redirects: \(clientError)")
            default:
                break
            }
        }
        let detail = String(describing: error)
        if let partial {
            return Retryable(final: FetchError(.truncatedBody, url: url, range: range,
                                               "connection failed after \(partial) body bytes: \(detail)"))
        }
        return Retryable(final: FetchError(.connectionFailed, url: url, range: range, "connection failed: \(detail)"))
    }
}

/// What one request did, filled in as it goes; owned by the task that sends the request.
final class RequestRecord {
    var entry: FetchStats.Request
    var firstByte: Date?

    init(spec: HTTPByteSource.RangeSpec, attempt: Int) {
        var suffix: UInt64?
        if case .suffix(let count) = spec { suffix = count }
        entry = FetchStats.Request(start: spec.range?.lowerBound ?? 0, end: spec.range?.upperBound, suffixLength: suffix,
                                   status: 0, bytes: 0, milliseconds: 0, firstByteMilliseconds: 0, attempt: attempt)
    }
}
