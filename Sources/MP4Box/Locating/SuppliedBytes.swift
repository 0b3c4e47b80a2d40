/// Thrown inside a step of an `IndexReader` when the bytes it needs have not been supplied yet.
struct BytesNeeded: Error {
    let request: ByteRequest
}

/// The answers to batches of ranges (`ByteRequest.ranges`) given to an `IndexReader` during one step of its work, in
/// the order it asked for them.
///
/// A step that reads several batches (a moof's probe, then its rest) stops at the first not answered yet by throwing
/// `BytesNeeded`; once it is answered, the step runs again from its start, takes the answers in order and goes on.
/// Such a step changes nothing before its last read, so running it again asks nothing twice. The answers are dropped
/// when the step finishes.
struct SuppliedBytes: Sendable {
    private struct Entry: Sendable {
        var request: [Range<UInt64>]
        var answer: [[UInt8]]
    }

    private var entries: [Entry] = []
    /// How many answers this run of the step has taken.
    private var taken = 0

    /// Keeps the answer to the batch the step stopped at, each part cut to what its range asked for.
    /// - Throws: `MP4Error` `readFailed` when the answer does not have one part a range.
    mutating func add(_ answer: ByteAnswer, for ranges: [Range<UInt64>]) throws(MP4Error) {
        guard case .bytes(let parts) = answer, parts.count == ranges.count else {
            throw MP4Error(.readFailed, path: "", offset: 0,
                           "the source's answer does not have the shape of \(ByteRequest.ranges(ranges))")
        }
        entries.append(Entry(request: ranges, answer: zip(parts, ranges).map { part, range in
            UInt64(part.count) > UInt64(range.count) ? Array(part.prefix(range.count)) : part
        }))
    }

    /// Starts a run of the step: the answers are taken from the first again.
    mutating func rewind() {
        taken = 0
    }

    /// Forgets the answers: the step they belong to has finished.
    mutating func removeAll() {
        entries.removeAll()
        taken = 0
    }

    /// The bytes of each of `ranges`, in their order; no request when there are none.
    /// - Throws: `BytesNeeded` when not answered yet, `MP4Error` when the answer taken is one to another batch.
    mutating func bytes(ranges: [Range<UInt64>]) throws -> [[UInt8]] {
        guard !ranges.isEmpty else { return [] }
        guard taken < entries.count else { throw BytesNeeded(request: .ranges(ranges)) }
        let entry = entries[taken]
        guard entry.request == ranges else {
            throw MP4Error(.readFailed, path: "", offset: 0, "an answer to \(entry.request) came where \(ranges) was asked for")
        }
        taken += 1
        return entry.answer
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
