import AsyncHTTPClient
import NIOCore

/// Reading response bodies: exactly the bytes announced, a window of a whole body, the whole body, or its tail, with
/// the byte budget and the deadline checked as chunks arrive.
extension HTTPByteSource {
    /// Reads and drops a body not used (a redirect's, a refusal's, a whole resource sent a second time), counting
    /// it: at most `limit` bytes, then the connection is given up.
    func drain(_ body: HTTPClientResponse.Body, range: Range<UInt64>?, record: RequestRecord,
               limit: Int = 64 * 1024) async throws {
        var bytes = 0
        for try await buffer in body {
            try await tally(buffer, range: range, record: record)
            bytes += buffer.readableBytes
            if bytes > limit { break }
        }
    }

    /// The longest whole body dropped that is still read to its end: by the time its head arrives, a body this short
    /// is on its way in full (about a bandwidth-delay product: 312 KB at 50 Mbit/s and 50 ms), so reading it costs
    /// nothing more and counts every byte the server sent; a longer one is cut.
    static let drainedBodyBytes: UInt64 = 256 * 1024

    /// Counts a chunk of body as it arrives: the request's bytes, then the budgets (bytes and deadline), which may stop
    /// the transfer here.
    func tally(_ buffer: ByteBuffer, range: Range<UInt64>?, record: RequestRecord) async throws {
        record.entry.bytes += UInt64(buffer.readableBytes)
        try ledger.receive(buffer.readableBytes, url: url, range: range)
    }

    /// Reads a body that is the whole resource (a server that ignores Range sent it) from its start: to its end, to
    /// keep it (`complete`), unless it grows past `maximumKeptBodyBytes` (a body of unknown length); then it stops
    /// once the first `needed` bytes are in.
    /// - Throws: `truncatedBody` (retryable) when the body ends before its announced length, `bodyTooLong` when it
    ///   runs past it.
    func collectWhole(_ body: HTTPClientResponse.Body, announced: UInt64?, needed: UInt64, range: Range<UInt64>?,
                      record: RequestRecord) async throws -> (bytes: [UInt8], complete: Bool) {
        var bytes: [UInt8] = []
        do {
            for try await buffer in body {
                try await tally(buffer, range: range, record: record)
                bytes.append(contentsOf: buffer.readableBytesView)
                if let announced, UInt64(bytes.count) > announced {
                    throw FetchError(.bodyTooLong, url: url, range: range, status: record.entry.status,
                                     "body runs past the \(announced) bytes announced")
                }
                if UInt64(bytes.count) > options.maximumKeptBodyBytes, UInt64(bytes.count) >= needed {
                    return (bytes, false)    // too long to keep: the client closes the connection
                }
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw classify(error, range: range, partial: bytes.count)
        }
        if let announced, UInt64(bytes.count) < announced {
            throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: record.entry.status,
                                              "body ended after \(bytes.count) of the \(announced) bytes announced"))
        }
        return (bytes, true)
    }


    /// Reads `take` bytes after skipping `skip`, then stops reading. With `exact`, more is an error, and so is fewer
    /// unless `allowsShorter` (a body whose length is only bounded).
    func collect(_ body: HTTPClientResponse.Body, skip: UInt64, take: Int, exact: Bool, range: Range<UInt64>?,
                 record: RequestRecord, allowsShorter: Bool = false) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(take, 64 << 20))
        var skipped: UInt64 = 0
        do {
            for try await buffer in body {
                try await tally(buffer, range: range, record: record)
                let view = Self.pastSkip(buffer, skip: skip, skipped: &skipped)
                if bytes.count + view.count > take {
                    if exact {
                        throw FetchError(.bodyTooLong, url: url, range: range, status: record.entry.status,
                                         "body runs past the \(take) bytes \(allowsShorter ? "it may hold" : "announced")")
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
        if exact && !allowsShorter && bytes.count < take {
            throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: record.entry.status,
                                              "body ended after \(bytes.count) of \(take) bytes"))
        }
        return bytes
    }

    /// The bytes of `buffer` after the first `skip` of the body, `skipped` counting those dropped so far.
    static func pastSkip(_ buffer: ByteBuffer, skip: UInt64, skipped: inout UInt64) -> ByteBufferView {
        let view = buffer.readableBytesView[...]
        guard skipped < skip else { return view }
        let drop = Int(min(skip - skipped, UInt64(view.count)))
        skipped += UInt64(drop)
        return view.dropFirst(drop)
    }

    /// Reads a whole body keeping only its last `count` bytes; returns them and the body's length.
    func collectTail(_ body: HTTPClientResponse.Body, count: Int, record: RequestRecord) async throws -> ([UInt8], UInt64) {
        var tail: [UInt8] = []
        var total: UInt64 = 0
        do {
            for try await buffer in body {
                try await tally(buffer, range: nil, record: record)
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

    /// The bytes of `range` in a whole resource's `body` (fewer at its end).
    static func bytes(_ range: Range<UInt64>, of body: [UInt8]) -> [UInt8] {
        let end = Int(min(range.upperBound, UInt64(body.count)))
        return Array(body[Int(min(range.lowerBound, UInt64(end)))..<end])
    }

    /// The last `count` bytes of a whole resource's `body`, with their offset.
    static func suffix(_ count: UInt64, of body: [UInt8]) -> Fetched {
        let start = body.count - Int(min(count, UInt64(body.count)))
        return Fetched(bytes: Array(body[start...]), offset: UInt64(start))
    }
}
