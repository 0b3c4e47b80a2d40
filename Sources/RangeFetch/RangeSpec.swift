
/// What one range request asks for, as its `Range` header says it.
enum RangeSpec: Equatable {
    /// One range.
    case bounded(Range<UInt64>)
    /// The last bytes, the length not known (`bytes=-n`).
    case suffix(UInt64)
    /// The last bytes, asked for beside a request for the head to an origin not known to answer several ranges at
    /// once: a `200` (a server that refuses suffix ranges, or ignores Range) is left unread and a `416` is no error,
    /// for the head's answer shows the length and the tail is then asked for as a bounded range.
    case tailBesideHead(UInt64)
    /// The first `head` bytes and the last `tail` bytes (the length, when known, names the tail's first byte).
    case ends(head: UInt64, tail: UInt64, length: UInt64?)
    /// Several ranges, ascending and apart, none empty.
    case several([Range<UInt64>])

    var header: String {
        switch self {
        case .bounded(let range): "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
        case .suffix(let count), .tailBesideHead(let count): "bytes=-\(count)"
        case .ends(let head, let tail, let length?): "bytes=0-\(head - 1),\(length - tail)-\(length - 1)"
        case .ends(let head, let tail, nil): "bytes=0-\(head - 1),-\(tail)"
        case .several(let ranges): "bytes=" + ranges.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")
        }
    }

    /// The ranges asked for that start at known offsets, in order (the ends' head; not a suffix).
    var boundedRanges: [Range<UInt64>] {
        switch self {
        case .bounded(let range): [range]
        case .ends(let head, _, _): [0..<head]
        case .several(let ranges): ranges
        case .suffix, .tailBesideHead: []
        }
    }

    /// Whether the ranges asked for add up to a resource of `length` bytes or more (a whole answer is then no
    /// Range ignored and no refusal of several ranges: nginx answers so).
    func asksForAll(length: UInt64) -> Bool {
        switch self {
        case .ends(let head, let tail, _): length <= head.saturatingAdd(tail)
        case .several(let ranges): length <= ranges.reduce(0) { $0.saturatingAdd(UInt64($1.count)) }
        case .bounded(let range): range.lowerBound == 0 && length <= range.upperBound
        case .suffix(let count), .tailBesideHead(let count): length <= count
        }
    }

    /// Whether it asks for more than one range (a 206 may then be multipart, or one range merging several).
    var isMultiple: Bool {
        switch self {
        case .ends, .several: true
        case .bounded, .suffix, .tailBesideHead: false
        }
    }

    /// Whether it asks for the last bytes without their offset.
    var isSuffix: Bool {
        switch self {
        case .suffix, .tailBesideHead: true
        case .bounded, .ends, .several: false
        }
    }

    /// The range checked against budgets and named in errors: for the ends, the head; for several, from the first
    /// byte of the first to the end of the last.
    var range: Range<UInt64>? {
        switch self {
        case .bounded(let range): range
        case .ends(let head, _, _): 0..<head
        case .several(let ranges): ranges[0].lowerBound..<ranges[ranges.count - 1].upperBound
        case .suffix, .tailBesideHead: nil
        }
    }
}
