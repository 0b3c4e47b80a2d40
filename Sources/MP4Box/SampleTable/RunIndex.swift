/// Cumulative positions of a run-length table: one number per run, never one per sample.
///
/// Used for stts (sample counts and time), ctts and stsc (sample counts), so
/// that the run holding sample n is found by binary search.
struct RunIndex: Sendable {
    /// The first sample of each run, ascending, then the total as a sentinel.
    let firstSample: [Int]

    /// The number of samples all runs cover.
    var totalSamples: Int { firstSample.last ?? 0 }

    /// The run holding sample `index`, or nil past the end.
    func run(containing index: Int) -> Int? {
        guard index >= 0, index < totalSamples else { return nil }
        // The last run whose first sample is <= index.
        return BinarySearch.prefixCount(firstSample.count - 1) { firstSample[$0] <= index } - 1
    }
}

extension RunIndex {
    /// The index of a table whose entries start with a 32-bit sample count (stts, ctts); `each` sees every run (its
    /// position and count) once its count has been checked.
    /// - Throws: `MP4Error` `limitExceeded` when the counts pass `limits.maximumSampleCount`, or what `each` throws.
    init(sampleCountsOf runs: RawTable, name: String, path: String, limits: ParseLimits,
         each: (_ run: Int, _ count: UInt64) throws(MP4Error) -> Void = { _, _ in }) throws(MP4Error) {
        var samples = [0]
        samples.reserveCapacity(runs.count + 1)
        var total: UInt64 = 0
        for run in 0..<runs.count {
            let count = UInt64(runs.uint32(run, 0))
            total += count
            guard total <= limits.maximumSampleCount else {
                throw MP4Error(.limitExceeded, path: path, offset: runs.fileOffset + UInt64(run * runs.entrySize),
                               "\(name) sample count \(total) exceeds the limit of \(limits.maximumSampleCount)")
            }
            try each(run, count)
            samples.append(Int(total))
        }
        self.init(firstSample: samples)
    }
}
