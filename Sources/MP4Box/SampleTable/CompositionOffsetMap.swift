/// Composition offsets from ctts runs: O(log runs) per sample, with the smallest and largest offset.
struct CompositionOffsetMap: Sendable {
    let runs: RawTable
    let index: RunIndex
    /// The smallest offset (0 with no ctts).
    let minimumOffset: Int64
    /// The largest offset (0 with no ctts).
    let maximumOffset: Int64

    init(box: EntryTableBox?, path: String, limits: ParseLimits) throws(MP4Error) {
        let table = box?.entries ?? .empty
        var low = Int64.max
        var high = Int64.min
        index = try RunIndex(sampleCountsOf: table, name: "ctts", path: path, limits: limits) { run, count in
            guard count > 0 else { return }
            let offset = Self.offset(table.uint32(run, 4))
            low = min(low, offset)
            high = max(high, offset)
        }
        runs = table
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
