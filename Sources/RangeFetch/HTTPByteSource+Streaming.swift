import AsyncHTTPClient
import ByteSources
import NIOCore

/// Reading a range as it arrives (`read(_:until:)`): one request whose body is handed over piece by piece and left
/// unread once the reader has enough (the client then closes the connection), retried from the first byte not yet
/// handed over.
extension HTTPByteSource {
    /// Where a streaming read's bytes go, and how far it has got: one per `read(_:until:)`, across its attempts.
    final class Delivery {
        let consume: (ArraySlice<UInt8>) throws -> Bool
        /// Bytes handed over so far.
        private(set) var delivered: UInt64 = 0
        /// Whether the reader has said it has enough.
        private(set) var isSatisfied = false

        init(_ consume: @escaping (ArraySlice<UInt8>) throws -> Bool) {
            self.consume = consume
        }

        /// Hands `bytes` over; true once the reader has enough. What the reader throws comes out as `ReaderFailure`,
        /// so that it is told apart from the transfer's failures and reaches the caller as it was thrown.
        func hand(_ bytes: ArraySlice<UInt8>) throws -> Bool {
            guard !isSatisfied else { return true }
            delivered += UInt64(bytes.count)
            do { isSatisfied = try consume(bytes) } catch { throw ReaderFailure(underlying: error) }
            return isSatisfied
        }
    }

    /// An error the reader of a streaming read threw.
    struct ReaderFailure: Error {
        var underlying: any Error
    }

    public func read(_ range: Range<UInt64>, until consume: @Sendable (ArraySlice<UInt8>) throws -> Bool) async throws -> UInt64 {
        guard range.lowerBound < .maximumFileOffset else { return 0 }
        var range = range.lowerBound..<min(range.upperBound, .maximumFileOffset)
        if let length = ledger.length {
            if range.lowerBound >= length { return 0 }
            range = range.lowerBound..<min(range.upperBound, length)
        }
        if range.isEmpty { return 0 }
        return try await withoutActuallyEscaping(consume) { consume in
            let delivery = Delivery(consume)
            do {
                if let body = ledger.wholeBody {
                    _ = try delivery.hand(Self.bytes(range, of: body)[...])
                    return delivery.delivered
                }
                _ = try await withRetries(range: range) { attempt in
                    // A retry asks for what was not handed over yet.
                    let rest = (range.lowerBound + delivery.delivered)..<range.upperBound
                    guard !delivery.isSatisfied, !rest.isEmpty else { return Fetched(bytes: [], offset: rest.lowerBound) }
                    let fetched = try await self.fetch(.bounded(rest), attempt: attempt, delivery: delivery)
                    // A whole body kept (a server that ignored Range) or parts: handed over from memory.
                    if !fetched.bytes.isEmpty { _ = try delivery.hand(fetched.bytes[...]) }
                    return fetched
                }
                return delivery.delivered
            } catch let failure as ReaderFailure {
                throw failure.underlying
            }
        }
    }

    /// Hands the body over to `delivery` after skipping `skip` bytes, at most `take` bytes, and stops reading as soon
    /// as the reader has enough.
    /// - Throws: `truncatedBody` (retryable: the retry asks for the rest) when the body ends before `take` bytes (or
    ///   before `announced`, for a whole body), `bodyTooLong` when a range's body runs past it.
    func deliver(_ body: HTTPClientResponse.Body, skip: UInt64, take: Int, range: Range<UInt64>?, record: RequestRecord,
                 to delivery: Delivery, announced: UInt64? = nil) async throws {
        var skipped: UInt64 = 0
        var taken = 0
        do {
            for try await buffer in body {
                try await tally(buffer, range: range, record: record)
                let view = Self.pastSkip(buffer, skip: skip, skipped: &skipped)
                if announced == nil, taken + view.count > take {
                    throw FetchError(.bodyTooLong, url: url, range: range, status: record.entry.status,
                                     "body runs past the \(take) bytes announced")
                }
                let piece = Array(view.prefix(take - taken))
                taken += piece.count
                // Enough: stop reading; the client closes the connection.
                if try delivery.hand(piece[...]) || taken == take { return }
            }
        } catch let error as FetchError {
            throw error
        } catch let failure as ReaderFailure {
            throw failure
        } catch {
            throw classify(error, range: range, partial: taken)
        }
        let shortOfAnnounced = announced.map { skip + UInt64(taken) < $0 } ?? true
        if taken < take, shortOfAnnounced {
            throw Retryable(final: FetchError(.truncatedBody, url: url, range: range, status: record.entry.status,
                                              "body ended after \(taken) of \(take) bytes"))
        }
    }
}
