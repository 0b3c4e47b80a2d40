/// Decode times from stts runs: O(log runs) from sample to time and back.
struct TimeToSampleMap: Sendable {
    let runs: RawTable
    let index: RunIndex
    /// Decode time of the first sample of each run, then the total duration.
    let firstTime: [Int64]

    /// Builds the cumulative index, checking every sum against overflow and `limits`.
    init(box: EntryTableBox?, path: String, limits: ParseLimits) throws(MP4Error) {
        let table = box?.entries ?? .empty
        var times: [Int64] = [0]
        times.reserveCapacity(table.count + 1)
        var timeTotal: UInt64 = 0
        index = try RunIndex(sampleCountsOf: table, name: "stts", path: path, limits: limits) { run, count throws(MP4Error) in
            timeTotal += count * UInt64(table.uint32(run, 4))  // count < 2^26 and delta < 2^32: no overflow for one run
            guard timeTotal < UInt64(Int64.max) >> 1 else {
                throw MP4Error(.malformed, path: path, offset: table.fileOffset + UInt64(run * 8), "stts total duration overflows")
            }
            times.append(Int64(timeTotal))
        }
        runs = table
        firstTime = times
    }

    /// The number of samples the runs cover.
    var sampleCount: Int { index.totalSamples }
    /// The sum of all durations.
    var totalDuration: Int64 { firstTime.last ?? 0 }

    /// Decode time and duration of sample `sample`; the caller keeps it below `sampleCount`.
    func timing(of sample: Int) -> (decodeTime: Int64, duration: UInt32) {
        guard let run = index.run(containing: sample) else { return (totalDuration, 0) }
        let delta = runs.uint32(run, 4)
        return (firstTime[run] + Int64(sample - index.firstSample[run]) * Int64(delta), delta)
    }

    /// The last sample whose decode time is <= `time`, or nil if every sample is later.
    func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        guard sampleCount > 0, time >= 0 else { return nil }
        // Last run whose first time is <= time (runs of zero samples share a first time; take the last).
        var run = max(0, BinarySearch.prefixCount(firstTime.count - 1) { firstTime[$0] <= time } - 1)
        // Skip back over empty runs at the end.
        while run > 0 && index.firstSample[run] == index.firstSample[run + 1] { run -= 1 }
        let delta = Int64(runs.uint32(run, 4))
        let count = index.firstSample[run + 1] - index.firstSample[run]
        guard count > 0 else { return nil }
        let within = delta == 0 ? count - 1 : min(count - 1, Int((time - firstTime[run]) / delta))
        return index.firstSample[run] + within
    }
}
