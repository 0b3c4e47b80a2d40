/// Thrown inside a step of an `IndexReader` when the bytes it needs have not been supplied yet.
struct BytesNeeded: Error {
    let request: ByteRequest
}

/// The answers given to an `IndexReader` during one step of its work, in the order it asked for them.
///
/// A step is a plain synchronous function of the reader's state and these answers: run from the state at the step's
/// start, it takes the answers in order and throws `BytesNeeded` at the first request not answered yet. The driver
/// answers it and the step runs again from the same start, so it asks nothing twice and needs no suspension point.
/// The answers are dropped when the step finishes.
struct SuppliedBytes: Sendable {
    private struct Entry: Sendable {
        var request: ByteRequest
        var answer: ByteAnswer
        var knownLength: UInt64?
    }

    private var entries: [Entry] = []
    /// How many answers this run of the step has taken.
    private var taken = 0

    /// Keeps the answer to the request the step stopped at.
    mutating func add(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?) {
        entries.append(Entry(request: request, answer: clamped(answer, to: request), knownLength: knownLength))
    }

    /// Forgets the answers: the step they belong to has finished.
    mutating func removeAll() {
        entries.removeAll()
        taken = 0
    }

    /// The bytes of `range` (fewer where it passes the end of the file), and the length the source knew after.
    /// - Throws: `BytesNeeded` when not answered yet, `MP4Error` when the answer is not one for this request.
    mutating func bytes(_ range: Range<UInt64>) throws -> (bytes: [UInt8], knownLength: UInt64?) {
        let entry = try take(.range(range))
        guard case .bytes(let parts) = entry.answer, parts.count == 1 else { throw Self.mismatch(entry.request) }
        return (parts[0], entry.knownLength)
    }

    /// The bytes of each of `ranges`, in their order; no request when there are none.
    /// - Throws: as `bytes(_:)`.
    mutating func bytes(ranges: [Range<UInt64>]) throws -> [[UInt8]] {
        guard !ranges.isEmpty else { return [] }
        let entry = try take(.ranges(ranges))
        guard case .bytes(let parts) = entry.answer, parts.count == ranges.count else { throw Self.mismatch(entry.request) }
        return parts
    }

    /// The first `head` and last `tail` bytes, and the length the source knew after.
    /// - Throws: as `bytes(_:)`.
    mutating func ends(head: UInt64, tail: UInt64) throws
        -> (head: [UInt8], tail: [UInt8], tailOffset: UInt64, length: UInt64?, knownLength: UInt64?) {
        let entry = try take(.ends(head: head, tail: tail))
        guard case .ends(let headBytes, let tailBytes, let tailOffset, let length) = entry.answer else {
            throw Self.mismatch(entry.request)
        }
        return (headBytes, tailBytes, tailOffset, length, entry.knownLength)
    }

    private mutating func take(_ request: ByteRequest) throws -> Entry {
        guard taken < entries.count else { throw BytesNeeded(request: request) }
        let entry = entries[taken]
        guard entry.request == request else {
            throw MP4Error(.readFailed, path: "", offset: 0, "an answer to \(entry.request) came where \(request) was asked for")
        }
        taken += 1
        return entry
    }

    private static func mismatch(_ request: ByteRequest) -> MP4Error {
        MP4Error(.readFailed, path: "", offset: 0, "the source's answer does not have the shape of \(request)")
    }

    /// `answer` with no more bytes than each range asked for (a source that gives more is cut to what was asked).
    private func clamped(_ answer: ByteAnswer, to request: ByteRequest) -> ByteAnswer {
        guard case .bytes(let parts) = answer else { return answer }
        let ranges: [Range<UInt64>]
        switch request {
        case .range(let range): ranges = [range]
        case .ranges(let all): ranges = all
        case .ends: return answer
        }
        guard parts.count == ranges.count else { return answer }
        return .bytes(zip(parts, ranges).map { part, range in
            UInt64(part.count) > UInt64(range.count) ? Array(part.prefix(range.count)) : part
        })
    }
}

/// Runs one step of an `IndexReader`: its result, or the request it stopped at.
/// - Throws: the step's `MP4Error`.
func runStep<Output: Sendable>(_ body: () throws -> Output) throws(MP4Error) -> IndexReaderStep<Output> {
    do {
        return .done(try body())
    } catch {
        if let needed = error as? BytesNeeded { return .read(needed.request) }
        if let error = error as? MP4Error { throw error }
        throw MP4Error(.readFailed, path: "", offset: 0, "\(error)")
    }
}
