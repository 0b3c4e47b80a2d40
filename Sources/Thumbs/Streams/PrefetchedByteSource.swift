import ByteSources
import Synchronization

/// A stream resource some of whose ranges were read already (the keyframes of an I-frame playlist read together,
/// `StreamSession.prefetch(_:)`): a read inside one of them is answered from memory, any other goes to the resource.
struct PrefetchedByteSource: ByteSource {
    /// The resource.
    let base: any ByteSource
    /// The ranges read, with their bytes (each whole).
    let held: [(range: Range<UInt64>, bytes: [UInt8])]

    var knownLength: UInt64? { get async { await base.knownLength } }
    var coalescingGap: UInt64 { base.coalescingGap }
    var version: String? { get async { await base.version } }
    var inputName: String? { base.inputName }
    var statistics: FetchStats? { get async { await base.statistics } }

    /// The held bytes of `range`, when one held range holds it all.
    private func heldBytes(of range: Range<UInt64>) -> ArraySlice<UInt8>? {
        guard let part = held.first(where: { $0.range.lowerBound <= range.lowerBound && range.upperBound <= $0.range.upperBound })
        else { return nil }
        let start = Int(range.lowerBound - part.range.lowerBound)
        return part.bytes[start ..< start + range.count]
    }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        if let bytes = heldBytes(of: range) { return Array(bytes) }
        return try await base.read(range)
    }

    func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        let found = ranges.map(heldBytes(of:))
        if found.allSatisfy({ $0 != nil }) { return found.map { Array($0 ?? []) } }
        return try await base.read(ranges: ranges)
    }

    /// The range in order, each part from memory where a held range has it and from the resource between them (the
    /// probes of a search over a file, read before, are not read again), until the reader has what it needs.
    func read(_ range: Range<UInt64>, until consume: @Sendable (ArraySlice<UInt8>) throws -> Bool) async throws -> UInt64 {
        var position = range.lowerBound
        let satisfied = Atomic(false)
        while position < range.upperBound, !satisfied.load(ordering: .relaxed) {
            if let part = held.first(where: { $0.range.contains(position) }) {
                let end = min(range.upperBound, part.range.upperBound)
                let start = Int(position - part.range.lowerBound)
                let bytes = part.bytes[start ..< start + Int(end - position)]
                position = end
                if try consume(bytes) { break }
                continue
            }
            // From the resource up to the next held part (or the range's end).
            let next = held.map(\.range.lowerBound).filter { $0 > position && $0 < range.upperBound }.min() ?? range.upperBound
            let asked = position ..< next
            let count = try await base.read(asked, until: { piece in
                let enough = try consume(piece)
                if enough { satisfied.store(true, ordering: .relaxed) }
                return enough
            })
            position += count
            // A read that stops short: the reader had enough, or the resource ended.
            if count < UInt64(asked.count) { break }
        }
        return position - range.lowerBound
    }
}
