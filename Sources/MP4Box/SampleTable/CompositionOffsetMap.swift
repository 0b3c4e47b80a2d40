/// Composition offsets from ctts runs: O(log runs) per sample, with the smallest and largest offset.
struct CompositionOffsetMap: Sendable {
    let runs: RawTable
    let index: RunIndex
    /// The smallest offset (0 with no ctts).
    let minimumOffset: Int64
    /// The largest offset (0 with no ctts).
    let maximumOffset: Int64

    init(box: EntryTableBox?, path: String, limits: ParseLimits) throws(MP4Error) {
        runs = box?.entries ?? .empty
        var samples = [0]
        samples.reserveCapacity(runs.count + 1)
        var total: UInt64 = 0
        var low = Int64.max
        var high = Int64.min
        for run in 0..<runs.count {
            let count = runs.uint32(run, 0)
            total += UInt64(count)
            guard total <= limits.maximumSampleCount else {
                throw MP4Error(.limitExceeded, path: path, offset: runs.fileOffset + UInt64(run * 8),
                               "ctts sample count \(total) exceeds the limit of \(limits.maximumSampleCount)")
            }
            samples.append(Int(total))
            if count > 0 {
                let offset = Self.offset(runs.uint32(run, 4))
                low = min(low, offset)
                high = max(high, offset)
            }
        }
        index = RunIndex(firstSample: samples)
        minimumOffset = low == Int64.max ? 0 : low
        maximumOffset = high == Int64.min ? 0 : high
    }

    /// Offsets are signed in version 1 and, in practice, in many version 0 files.
    static func offset(_ raw: UInt32) -> Int64 { Int64(Int32(bitPattern: raw)) }

    /// The composition offset of `sample`; samples past the table have offset 0.
    func offset(of sample: Int) -> Int64 {
        guard let run = index.run(containing: sample) else { return 0 }
        return Self.offset(runs.uint32(run, 4))
    }
}
