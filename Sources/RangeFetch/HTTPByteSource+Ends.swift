import AsyncHTTPClient
import ByteSources

/// Reading the head and the tail of a resource, where a movie's index is: in one request from an origin known to
/// answer several ranges at once, else as two requests side by side.
extension HTTPByteSource {
    /// The head and the tail, in one round trip from any origin. To an origin known to answer several ranges with
    /// `multipart/byteranges` (nginx, Apache), one request: `Range: bytes=0-h,-t`. To any other (object stores
    /// answer several ranges with the whole object or with 416, and a first contact cannot tell), two single-range
    /// requests side by side: `bytes=0-h` and `bytes=-t`. Where the tail's answer brings nothing usable (a server
    /// that refuses suffix ranges, or several ranges refused after all), it is asked for once the head has shown
    /// the length; a server that ignores Range sends the whole resource, kept when short enough.
    public func readEnds(head: UInt64, tail: UInt64) async throws -> FileEnds {
        let head = min(head, .maximumFileOffset)
        if let body = ledger.wholeBody {
            return Self.ends(head: head, tail: tail, of: body)
        }
        let known = ledger.length
        if tail == 0 || known.map({ $0 <= head.saturatingAdd(tail) }) == true {
            let bytes = try await read(0..<(known ?? head))
            let length = ledger.length ?? (UInt64(bytes.count) < head ? UInt64(bytes.count) : nil)
            return FileEnds(head: bytes, tail: [], tailOffset: UInt64(bytes.count), length: length)
        }
        guard head > 0 else {
            let last = try await readSuffix(tail)
            return FileEnds(head: [], tail: last.bytes, tailOffset: last.offset, length: last.offset + UInt64(last.bytes.count))
        }
        guard originAnswer() == .multipart else {
            return try await readEndsSeparately(head: head, tail: tail, known: known)
        }
        let fetched = try await withRetries(range: 0..<head) { try await self.fetch(.ends(head: head, tail: tail, length: known), attempt: $0) }
        if let body = ledger.wholeBody {
            return Self.ends(head: head, tail: tail, of: body)
        }
        if fetched.separately && fetched.bytes.isEmpty {
            return try await readEndsSeparately(head: head, tail: tail, known: ledger.length)
        }
        return try await completing(head: fetched.bytes, tail: fetched.tail, wanted: tail)
    }

    /// The head and the tail as two requests side by side (the tail as a suffix while the length is unknown).
    private func readEndsSeparately(head: UInt64, tail: UInt64, known: UInt64?) async throws -> FileEnds {
        let tailSpec: RangeSpec = known.map { .bounded($0 - min($0, tail)..<$0) } ?? .tailBesideHead(tail)
        let (first, ending) = try await sideBySide {
            async let last = withRetries(range: tailSpec.range) { try await self.fetch(tailSpec, attempt: $0) }
            let first = try await withRetries(range: 0..<head) { try await self.fetch(.bounded(0..<head), attempt: $0) }
            return (first, try await last)
        }
        if let body = ledger.wholeBody {
            return Self.ends(head: head, tail: tail, of: body)
        }
        if UInt64(first.bytes.count) < head {
            // The whole resource is in the head.
            let length = UInt64(first.bytes.count)
            return FileEnds(head: first.bytes, tail: [], tailOffset: length, length: ledger.length ?? length)
        }
        return try await completing(head: first.bytes, tail: ending.separately ? nil : (ending.bytes, ending.offset),
                                    wanted: tail)
    }

    /// The ends from the head and the tail fetched, the tail asked for now when it did not come and the length is
    /// known. A suffix's answer ends at the resource's end, so it shows the length where no header told it.
    private func completing(head: [UInt8], tail: (bytes: [UInt8], offset: UInt64)?, wanted: UInt64) async throws -> FileEnds {
        var length = ledger.length
        if let tail {
            if length == nil, !tail.bytes.isEmpty { length = tail.offset + UInt64(tail.bytes.count) }
            return FileEnds(head: head, tail: tail.bytes, tailOffset: tail.offset, length: length)
        }
        guard let length, UInt64(head.count) < length else {
            return FileEnds(head: head, tail: [], tailOffset: UInt64(head.count), length: length)
        }
        // The head alone came: the tail now that the length is known.
        let start = max(UInt64(head.count), length - min(length, wanted))
        let last = try await read(start..<length)
        return FileEnds(head: head, tail: last, tailOffset: start, length: length)
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

    /// The head and the tail from a multipart 206: each part must be one of the ranges asked for (or both merged into
    /// one that runs to the end), with one complete length, which is checked like any response's.
    /// - Throws: `FetchError` `invalidResponse` for a body that is not well-formed, `contentRangeMismatch` for a part
    ///   that was not asked for, `bodyTooLong`, `resourceChanged`, and what reading the body throws.
    func collectEnds(_ response: HTTPClientResponse, boundary: String, spec: RangeSpec, validator seen: Validator?,
                     record: RequestRecord) async throws -> Fetched {
        guard case .ends(let head, let tail, let askedLength) = spec else {
            throw FetchError(.invalidResponse, url: url, range: spec.range, status: 206, "not a multipart answer")
        }
        let range = spec.range
        // The parts' bytes and, for each, a few hundred bytes of boundary and headers.
        let maximum = head.saturatingAdd(tail).saturatingAdd(16 * 1024)
        try ledger.checkBytes(url: url, range: range, adding: head.saturatingAdd(tail))
        let body = try await collect(response.body, skip: 0, take: Int(min(maximum, UInt64(Int.max))), exact: true,
                                     range: range, record: record, allowsShorter: true)
        let parts: [MultipartByteRanges.Part]
        do {
            parts = try MultipartByteRanges(body: body, boundary: boundary, maximumParts: 2).parts
        } catch {
            throw FetchError(.invalidResponse, url: url, range: range, status: 206, "malformed multipart/byteranges: \(error.detail)")
        }
        let lengths = Set(parts.map(\.contentRange.completeLength))
        guard lengths.count == 1, let length = lengths.first ?? nil, askedLength.map({ $0 == length }) ?? true else {
            throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                             "the parts do not name one complete length: \(parts.map(\.contentRange.text))")
        }
        try await checkChange(validator: seen, length: length, range: range, status: 206)
        var fetched = Fetched(bytes: [], offset: 0)
        var sawHead = false
        for part in parts {
            let partRange = part.contentRange.range
            if partRange.lowerBound == 0, !sawHead, partRange.count <= head || partRange.upperBound == length {
                fetched.bytes = part.bytes
                sawHead = true
            } else if partRange.upperBound == length, partRange.count <= tail, fetched.tail == nil {
                fetched.tail = (part.bytes, partRange.lowerBound)
            } else {
                throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206,
                                 "part \(part.contentRange.text) was not asked for")
            }
        }
        guard sawHead else {
            throw FetchError(.contentRangeMismatch, url: url, range: range, status: 206, "no part holds the head")
        }
        return fetched
    }
}
