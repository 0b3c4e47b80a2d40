import AsyncHTTPClient
import BoundedTasks

/// Reading several ranges (storyboards' keyframes, fragment probes): in one request (`Range: bytes=a-b,c-d,...`)
/// from an origin known to answer so, else one range a request, side by side.
extension HTTPByteSource {
    /// Most ranges one request asks for: the Range header stays within a few hundred bytes per range, far below
    /// the header sizes servers accept (nginx: 8 KiB a line).
    static let maximumRangesPerRequest = 32

    /// Most requests of one `read(ranges:)` under way at once when ranges go one a request: AsyncHTTPClient's
    /// connections per host over HTTP/1.1, so none waits for a connection.
    static let maximumConcurrentRequests = 8

    /// Ranges asked for together of an origin whose answer to several ranges is not yet known: fewer go one a
    /// request (the same round trip), so a thumbnail's one or two fragment probes never cost a refusal.
    static let rangesWorthAsking = 3

    /// What an origin whose answer to several ranges is not known may send past the ranges asked for, were it to
    /// answer with the whole resource (as S3, GCS, R2 and Azure do): beyond it, the ranges go one a request.
    static let wholeAnswerAllowance: UInt64 = 1 << 20

    /// Each of `ranges`, clamped as `read(_:)` clamps. Ascending ranges that do not touch are asked for together,
    /// up to `maximumRangesPerRequest` a request, from an origin that has answered several ranges with
    /// `multipart/byteranges` (nginx does), or to learn whether one does when there are at least
    /// `rangesWorthAsking` of them and the whole resource, were the origin to answer with it, would be at most
    /// twice what they ask for and `wholeAnswerAllowance` more (an object store sends a large object whole however
    /// early the reader stops, and bills what it sends). From any other, and for what an answer left out (a whole
    /// resource is read only as far as the ranges near its start), one request a range, at most
    /// `maximumConcurrentRequests` at once.
    public func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        var results = [[UInt8]?](repeating: nil, count: ranges.count)
        let length = ledger.length
        var wanted: [(index: Int, range: Range<UInt64>)] = []
        for (index, range) in ranges.enumerated() {
            let end = min(range.upperBound, length ?? .maximumFileOffset, .maximumFileOffset)
            if range.lowerBound >= end { results[index] = [] } else { wanted.append((index, range.lowerBound..<end)) }
        }
        let apart = zip(wanted, wanted.dropFirst()).allSatisfy { $0.range.upperBound < $1.range.lowerBound }
        var batches = stride(from: 0, to: wanted.count, by: Self.maximumRangesPerRequest).map {
            Array(wanted[$0..<min($0 + Self.maximumRangesPerRequest, wanted.count)])
        }
        if wanted.count > 1, apart, ledger.wholeBody == nil, originAnswer() == nil, wanted.count >= Self.rangesWorthAsking,
           let first = batches.first, Self.wholeAnswerIsSmall(length: length, asking: first.map(\.range)) {
            // Ask the first batch together, to learn how the origin answers; the rest as that shows.
            for (index, bytes) in try await readTogether(batches.removeFirst()) { results[index] = bytes }
        }
        if wanted.count > 1, apart, ledger.wholeBody == nil, originAnswer() == .multipart {
            let answered = try await sideBySide {
                try await BoundedTaskGroup.map(batches, atMost: batches.count) { batch in try await self.readTogether(batch) }
            }
            for (index, bytes) in answered.joined() { results[index] = bytes }
        }
        // What no request brought yet: one range a request, side by side.
        let rest = wanted.filter { results[$0.index] == nil }
        if rest.isEmpty { return results.map { $0 ?? [] } }
        let read = try await sideBySide {
            try await BoundedTaskGroup.map(rest, atMost: Self.maximumConcurrentRequests) { try await self.read($0.range) }
        }
        for (wanted, bytes) in zip(rest, read) { results[wanted.index] = bytes }
        return results.map { $0 ?? [] }
    }

    /// Whether a resource of `length` answered whole to a request for `ranges` would cost at most twice what they
    /// ask for and `wholeAnswerAllowance` more; not when the length is unknown.
    static func wholeAnswerIsSmall(length: UInt64?, asking ranges: [Range<UInt64>]) -> Bool {
        guard let length else { return false }
        let asked = ranges.reduce(UInt64(0)) { $0.saturatingAdd(UInt64($1.count)) }
        return length <= asked.saturatingAdd(asked).saturatingAdd(wholeAnswerAllowance)
    }

    /// How the origin the requests now go to (after redirects) answers several ranges, if it has been asked.
    func originAnswer() -> OriginRangeSupport.Answer? {
        client.rangeSupport.answer(for: ledger.redirectedURL ?? url)
    }

    /// The ranges of `batch` one request brought (by their index in the caller's list): all of them from a
    /// multipart answer, those inside the one range or the whole resource another answer gave.
    private func readTogether(_ batch: [(index: Int, range: Range<UInt64>)]) async throws -> [(Int, [UInt8])] {
        let spec = RangeSpec.several(batch.map(\.range))
        let fetched = try await withRetries(range: spec.range) { try await self.fetch(spec, attempt: $0) }
        if let body = ledger.wholeBody {
            return batch.map { ($0.index, Self.bytes($0.range, of: body)) }
        }
        let parts = fetched.parts.isEmpty ? [(offset: fetched.offset, bytes: fetched.bytes)] : fetched.parts
        return batch.compactMap { wanted in
            guard let part = parts.first(where: {
                $0.offset <= wanted.range.lowerBound && wanted.range.upperBound <= $0.offset + UInt64($0.bytes.count)
            }) else { return nil }
            let start = Int(wanted.range.lowerBound - part.offset)
            return (wanted.index, Array(part.bytes[start..<start + wanted.range.count]))
        }
    }

    /// The parts of a multipart 206 to a request for several ranges: each must lie within what was asked for and
    /// hold at least one of the ranges (a server may merge neighbours), all naming one complete length, checked like
    /// any response's.
    /// - Throws: `FetchError` `invalidResponse` for a body that is not well-formed, `contentRangeMismatch` for a part
    ///   that was not asked for, `bodyTooLong`, `resourceChanged`, and what reading the body throws.
    func collectParts(_ response: HTTPClientResponse, boundary: String, spec: RangeSpec, validator seen: Validator?,
                      record: RequestRecord) async throws -> Fetched {
        guard case .several(let ranges) = spec else {
            throw FetchError(.invalidResponse, url: url, range: spec.range, status: 206, "not a multipart answer")
        }
        let range = spec.range
        let asked = ranges.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        // The parts' bytes and, for each, a few hundred bytes of boundary and headers.
        let maximum = asked.saturatingAdd(16 * 1024).saturatingAdd(UInt64(ranges.count) * 512)
        try ledger.checkBytes(url: url, range: range, adding: asked)
        let body = try await collect(response.body, skip: 0, take: Int(min(maximum, UInt64(Int.max))), exact: true,
                                     range: range, record: record, allowsShorter: true)
        let parts: [MultipartByteRanges.Part]
        do {
            parts = try MultipartByteRanges(body: body, boundary: boundary, maximumParts: ranges.count).parts
        } catch {
            throw FetchError(.invalidResponse, url: url, range: range, status: 206, "malformed multipart/byteranges: \(error.detail)")
        }
        let lengths = Set(parts.map(\.contentRange.completeLength))
        guard lengths.count == 1, let length = lengths.first ?? nil else {
            throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                             "the parts do not name one complete length: \(parts.map(\.contentRange.text))")
        }
        try await checkChange(validator: seen, length: length, range: range, status: 206)
        for part in parts {
            let partRange = part.contentRange.range
            guard ranges.contains(where: { partRange.lowerBound <= $0.lowerBound && $0.upperBound <= partRange.upperBound }),
                  let range, range.lowerBound <= partRange.lowerBound, partRange.upperBound <= range.upperBound else {
                throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                                 "part \(part.contentRange.text) was not asked for")
            }
        }
        return Fetched(bytes: [], offset: 0, parts: parts.map { ($0.contentRange.first, $0.bytes) })
    }
}
