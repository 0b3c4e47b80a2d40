/// Bytes of a file already read and kept, as disjoint spans by file offset: what locating the index read besides
/// the index (the media data in the head or the tail), so that a sample inside them costs no further read.
public struct HeldBytes: Sendable {
    /// One contiguous run of bytes.
    public struct Span: Sendable, Equatable {
        /// The file offset of `bytes[0]`.
        public var offset: UInt64
        /// The bytes.
        public var bytes: [UInt8]

        /// The file range the span covers.
        public var range: Range<UInt64> { offset..<(offset + UInt64(bytes.count)) }

        /// Makes a span.
        public init(offset: UInt64, bytes: [UInt8]) {
            self.offset = offset
            self.bytes = bytes
        }
    }

    /// The spans, in file order, neither overlapping nor touching.
    public private(set) var spans: [Span] = []

    /// Nothing held.
    public init() {}

    /// The bytes held.
    public var byteCount: Int { spans.reduce(0) { $0 + $1.bytes.count } }

    /// The bytes of `range` when one span holds all of them, else nil.
    public func bytes(_ range: Range<UInt64>) -> [UInt8]? {
        guard let span = spans.first(where: { $0.range.lowerBound <= range.lowerBound && range.upperBound <= $0.range.upperBound })
        else { return nil }
        let start = Int(range.lowerBound - span.offset)
        return Array(span.bytes[start..<start + range.count])
    }

    /// The held bytes at the start of `range`: as many as one span holds from `range.lowerBound` on (none when no
    /// span holds that offset), at most `range.count`.
    public func prefix(of range: Range<UInt64>) -> [UInt8] {
        guard let span = spans.first(where: { $0.range.contains(range.lowerBound) }) else { return [] }
        let start = Int(range.lowerBound - span.offset)
        let end = Int(min(range.upperBound, span.range.upperBound) - span.offset)
        return Array(span.bytes[start..<end])
    }

    /// Adds `bytes` at `offset`, merged with the spans it overlaps or touches (bytes already held are kept).
    public mutating func insert(_ bytes: [UInt8], at offset: UInt64) {
        guard !bytes.isEmpty else { return }
        var merged = Span(offset: offset, bytes: bytes)
        var kept: [Span] = []
        for span in spans {
            if span.range.upperBound < merged.offset || merged.range.upperBound < span.offset {
                kept.append(span)
                continue
            }
            let lower = min(span.offset, merged.offset)
            let upper = max(span.range.upperBound, merged.range.upperBound)
            var joined = [UInt8](repeating: 0, count: Int(upper - lower))
            for part in [merged, span] {  // the span already held wins where both have bytes
                let start = Int(part.offset - lower)
                joined.replaceSubrange(start..<start + part.bytes.count, with: part.bytes)
            }
            merged = Span(offset: lower, bytes: joined)
        }
        kept.append(merged)
        spans = kept.sorted { $0.offset < $1.offset }
    }

    /// The same bytes without those in `ranges` (spans are cut around them).
    public func removing(_ ranges: [Range<UInt64>]) -> HeldBytes {
        var result = HeldBytes()
        for span in spans {
            var pieces = [span.range]
            for cut in ranges {
                pieces = pieces.flatMap { piece -> [Range<UInt64>] in
                    guard cut.lowerBound < piece.upperBound, piece.lowerBound < cut.upperBound else { return [piece] }
                    return [piece.lowerBound..<max(piece.lowerBound, cut.lowerBound),
                            min(piece.upperBound, cut.upperBound)..<piece.upperBound].filter { !$0.isEmpty }
                }
            }
            for piece in pieces {
                let start = Int(piece.lowerBound - span.offset)
                result.spans.append(Span(offset: piece.lowerBound, bytes: Array(span.bytes[start..<start + piece.count])))
            }
        }
        return result
    }
}
