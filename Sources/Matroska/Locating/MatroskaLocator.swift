import MP4Box

/// Finds a Matroska or WebM file's index without doing I/O: it asks for the file's ends, reads the EBML header and
/// the Segment's first elements, follows the SeekHead to Info, Tracks and Cues where the ends do not hold them, and
/// asks for those in one batch of ranges (with a guess of the size where only the position is known, and once more
/// for the rest when an element is larger). Cues before or after the Clusters cost the same: the ends, then at most
/// one batch (two when a guess falls short).
///
/// Driven like `MovieLocator` (`IndexReader`): by `ByteSource.run(_:)` in `Thumbs`, or from memory by `run(answering:)`.
public struct MatroskaLocator: IndexReader {
    /// What locating found: the file's index, the bytes read (to be used again: the first Cluster is often in the
    /// head), and what it cost.
    public struct Result: Sendable {
        /// The index.
        public var file: MatroskaFile
        /// Every byte read, by file offset.
        public var heldBytes: HeldBytes
        /// The reads made (each a request of the driver).
        public var reads: Int
    }

    /// The first read's sizes: the head holds the EBML header, the SeekHead, Info, Tracks and (where a muxer puts them
    /// first) the Cues; the tail holds Cues put at the end of a short file.
    public var headSize: UInt64
    public var tailSize: UInt64
    /// The bytes read at a position SeekHead names before the element's size is known.
    public var elementGuess: UInt64
    /// Caps.
    public var limits: MatroskaLimits

    private var held = HeldBytes()
    private var endsRead = false
    private var tailOffset: UInt64?
    private var knownLength: UInt64?
    private var reads = 0
    private var asked: Set<Range<UInt64>> = []
    private var failure: MatroskaError?

    /// Most batches of ranges after the ends: each follows a SeekHead or a header read before, so a file needs two.
    static let maximumReads = 6

    /// A locator; `knownLength` is the file's length where the source knows it before reading.
    public init(headSize: UInt64 = 64 << 10, tailSize: UInt64 = 64 << 10, elementGuess: UInt64 = 64 << 10,
                limits: MatroskaLimits = MatroskaLimits(), knownLength: UInt64? = nil) {
        self.headSize = headSize
        self.tailSize = tailSize
        self.elementGuess = elementGuess
        self.limits = limits
        self.knownLength = knownLength
    }

    /// Whether `head` starts with an EBML header (`1A 45 DF A3`): what tells a Matroska file from others.
    public static func startsMatroska(_ head: some Collection<UInt8>) -> Bool {
        Array(head.prefix(4)) == [0x1A, 0x45, 0xDF, 0xA3]
    }

    /// The bytes needed next, or the index.
    /// - Throws: `MatroskaError`: `notMatroska` (no EBML header, another DocType), `malformed`, `unsupported`,
    ///   `limitExceeded`, `readFailed` (an answer that does not fit its request).
    public mutating func next() throws(MatroskaError) -> IndexReaderStep<Result> {
        if let failure { throw failure }
        guard endsRead else { return .read(.ends(head: headSize, tail: tailSize)) }
        var index = Walk(held: held, limits: limits, length: knownLength, tailOffset: tailOffset, guess: elementGuess)
        try index.walk()
        let wanted = index.wanted.filter { !$0.isEmpty }
        guard !wanted.isEmpty else {
            return .done(Result(file: try index.file(fileLength: knownLength), heldBytes: held, reads: reads))
        }
        guard reads <= Self.maximumReads, !wanted.contains(where: asked.contains) else {
            throw MatroskaError(.malformed, offset: wanted[0].lowerBound,
                                "the index elements the SeekHead names are not where it says (\(reads) reads)")
        }
        asked.formUnion(wanted)
        return .read(.ranges(wanted))
    }

    public mutating func receive(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?) {
        reads += 1
        if let knownLength { self.knownLength = knownLength }
        switch (request, answer) {
        case (.ends, .ends(let head, let tail, let offset, let length)):
            endsRead = true
            held.insert(head, at: 0)
            if !tail.isEmpty { held.insert(tail, at: offset) }
            tailOffset = offset
            if let length { self.knownLength = length }
        case (.ranges(let ranges), .bytes(let parts)) where ranges.count == parts.count:
            for (range, part) in zip(ranges, parts) where !part.isEmpty {
                held.insert(Array(part.prefix(range.count)), at: range.lowerBound)
            }
        default:
            failure = MatroskaError(.readFailed, "an answer that does not fit the request \(request)")
        }
    }
}
