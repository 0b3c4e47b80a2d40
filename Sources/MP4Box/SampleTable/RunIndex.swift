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
