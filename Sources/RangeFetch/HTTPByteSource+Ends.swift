import AsyncHTTPClient

/// Reading a `multipart/byteranges` answer to a request for the head and the tail together.
extension HTTPByteSource {
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
        try await ledger.checkBytes(url: url, range: range, adding: head.saturatingAdd(tail))
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
