/// Bytes of a file that an `IndexReader` needs before it can go on.
public enum ByteRequest: Sendable, Hashable {
    /// The first `head` and the last `tail` bytes, together (one request where the transport can ask for both).
    case ends(head: UInt64, tail: UInt64)
    /// One range, clamped to the end of the file.
    case range(Range<UInt64>)
    /// Several ranges, each clamped to the end of the file, in one go where the transport can ask for several.
    case ranges([Range<UInt64>])
}

/// The bytes that came back for a `ByteRequest`.
public enum ByteAnswer: Sendable, Equatable {
    /// For `.ends`: the bytes from offset 0 (the whole file when it is no longer than the head and tail together),
    /// the last bytes that are not in the head and the offset of the first of them, and the file's length when the
    /// read showed it.
    case ends(head: [UInt8], tail: [UInt8], tailOffset: UInt64, length: UInt64?)
    /// For `.range`, one array; for `.ranges`, one per range, in their order. Fewer bytes than asked only where a
    /// range passes the end of the file.
    case bytes([[UInt8]])
}

/// What an `IndexReader` does next.
public enum IndexReaderStep<Output: Sendable>: Sendable {
    /// Read these bytes and give them to `IndexReader.receive(_:for:knownLength:)`.
    case read(ByteRequest)
    /// Finished.
    case done(Output)
}

/// A reader of a movie's index that does no I/O: it says which bytes it needs, is given them, and goes on, until it
/// is done. One driver that owns the byte source does the reads (`ByteSource.run(_:)`), so the parser never waits
/// on a transport and can be driven from memory as well.
public protocol IndexReader: Sendable {
    /// What the reader finds.
    associatedtype Output: Sendable
    /// What the reader throws when the bytes show the file cannot be read: `MP4Error` for MP4Box's readers.
    associatedtype Failure: Error = MP4Error

    /// The bytes needed next, or the result.
    /// - Throws: `Failure` when the bytes read show the file cannot be read (the same errors whatever the transport).
    mutating func next() throws(Failure) -> IndexReaderStep<Output>

    /// The answer to the request `next()` made last, and the file's length when the source knows it after the read.
    mutating func receive(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?)
}

extension IndexReader {
    /// Runs the reader to its end, answering each request with `answer` (which reads from memory, or wherever the
    /// caller holds the bytes, without suspending): the synchronous driver, as `ByteSource.run(_:)` in `Thumbs` is
    /// the one that reads from a source.
    /// - Throws: the reader's `Failure`.
    public consuming func run(answering answer: (ByteRequest) -> (ByteAnswer, knownLength: UInt64?)) throws(Failure) -> Output {
        var reader = self
        while true {
            switch try reader.next() {
            case .done(let output):
                return output
            case .read(let request):
                let (bytes, knownLength) = answer(request)
                reader.receive(bytes, for: request, knownLength: knownLength)
            }
        }
    }
}
