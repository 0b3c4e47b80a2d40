/// The samples of one track gathered from movie fragments (moof/traf/trun), read on demand.
///
/// Sync samples are counted per run; only runs whose samples carry their own flags list them (a list their
/// entries back), so a trun that claims millions of samples with default flags costs nothing per sample.
public struct FragmentedSampleTable: Sendable {
    /// The number of samples in all fragments read.
    public let count: Int
    let runs: [FragmentRun]
    /// The number of sync samples.
    public let syncSampleCount: Int
    /// For each run, the sync samples of the runs before it.
    private let syncSamplesBefore: [Int]
    /// Sync sample indices of the runs whose samples carry flags, ascending.
    private let listedSyncSamples: [Int]
    /// For each run, where its sync samples start in `listedSyncSamples`.
    private let listedStart: [Int]
    /// The sync samples held in a list (those of runs whose samples carry flags).
    var listedSyncSampleCount: Int { listedSyncSamples.count }
    let compositionOffsetRange: ClosedRange<Int64>

    /// Gathers the runs of `trackID` from `fragments` (moof boxes in file order).
    /// - Throws: `MP4Error` `malformed` when a run's data offset is out of range, `limitExceeded` past `limits`.
    init(trackID: UInt32, fragments: [ContainerBox], defaults: TrackExtendsBox?, initialDecodeTime: Int64 = 0,
         limits: ParseLimits) throws(MP4Error) {
        var runs: [FragmentRun] = []
        var syncSamplesBefore: [Int] = []
        var listedSyncSamples: [Int] = []
        var listedStart: [Int] = []
        var syncTotal = 0
        var sampleTotal = 0
        var nextDecodeTime = initialDecodeTime
        var low = Int64.max
        var high = Int64.min
        for (fragmentNumber, moof) in fragments.enumerated() {
            let moofPath = "moof[\(fragmentNumber + 1)]"
            var previousTrafEnd: UInt64 = moof.header.offset
            for traf in moof.containers("traf") {
                guard let tfhd = traf.first(TrackFragmentHeaderBox.self) else {
                    throw MP4Error(.malformed, path: moofPath + "/traf", offset: traf.header.offset, "traf has no tfhd")
                }
                guard tfhd.trackID == trackID else { continue }
                let base: UInt64 = tfhd.baseDataOffset ?? (tfhd.defaultBaseIsMoof ? moof.header.offset : previousTrafEnd)
                guard base < UInt64(Int64.max) else {
                    throw MP4Error(.malformed, path: moofPath + "/traf/tfhd", offset: tfhd.header.offset,
                                   "base data offset \(base) is out of range")
                }
                if let tfdt = traf.first(TrackFragmentBaseMediaDecodeTimeBox.self) {
                    guard tfdt.baseMediaDecodeTime < UInt64(Int64.max >> 2) else {
                        throw MP4Error(.malformed, path: moofPath + "/traf/tfdt", offset: tfdt.header.offset, "decode time overflows")
                    }
                    nextDecodeTime = Int64(tfdt.baseMediaDecodeTime)
                }
                var runDataOffset = base
                for trun in traf.all(TrackRunBox.self) {
                    if let relative = trun.dataOffset {
                        let start = Int64(base).saturatingAdd(Int64(relative))
                        guard start >= 0 else {
                            throw MP4Error(.malformed, path: moofPath + "/traf/trun", offset: trun.header.offset,
                                           "data offset \(relative) points before the file")
                        }
                        runDataOffset = UInt64(start)
                    }
                    let fragmentRun = FragmentRun(
                        firstSample: sampleTotal, dataOffset: runDataOffset, baseDecodeTime: nextDecodeTime, run: trun,
                        defaultDuration: tfhd.defaultSampleDuration ?? defaults?.defaultSampleDuration ?? 0,
                        defaultSize: tfhd.defaultSampleSize ?? defaults?.defaultSampleSize ?? 0,
                        defaultFlags: tfhd.defaultSampleFlags ?? defaults?.defaultSampleFlags ?? 0,
                        descriptionIndex: tfhd.sampleDescriptionIndex ?? defaults?.defaultSampleDescriptionIndex ?? 1,
                        moofOffset: moof.header.offset)
                    let (end, overflow) = runDataOffset.addingReportingOverflow(fragmentRun.totalSize)
                    guard !overflow, end < UInt64(Int64.max) else {
                        throw MP4Error(.malformed, path: moofPath + "/traf/trun", offset: trun.header.offset, "sample data offsets overflow")
                    }
                    sampleTotal += fragmentRun.sampleCount
                    guard sampleTotal <= limits.maximumSampleCount else {
                        throw MP4Error(.limitExceeded, path: moofPath + "/traf/trun", offset: trun.header.offset,
                                       "fragment sample count \(sampleTotal) exceeds the limit of \(limits.maximumSampleCount)")
                    }
                    nextDecodeTime = nextDecodeTime.saturatingAdd(fragmentRun.totalDuration)
                    runDataOffset = end
                    previousTrafEnd = end
                    guard fragmentRun.sampleCount > 0 else { continue }
                    // Loops over the samples only where the trun has entries for them.
                    let listedBefore = listedSyncSamples.count
                    if fragmentRun.syncPattern == .perSample {
                        for index in 0..<fragmentRun.sampleCount where fragmentRun.flags(index) & 0x1_0000 == 0 {
                            listedSyncSamples.append(fragmentRun.firstSample + index)
                        }
                    }
                    if fragmentRun.hasCompositionOffsets {
                        for index in 0..<fragmentRun.sampleCount {
                            let offset = fragmentRun.compositionOffset(index)
                            low = min(low, offset)
                            high = max(high, offset)
                        }
                    } else {
                        low = min(low, 0)
                        high = max(high, 0)
                    }
                    listedStart.append(listedBefore)
                    syncSamplesBefore.append(syncTotal)
                    syncTotal += fragmentRun.patternSyncCount ?? listedSyncSamples.count - listedBefore
                    runs.append(fragmentRun)
                }
            }
        }
        self.runs = runs
        self.syncSampleCount = syncTotal
        self.syncSamplesBefore = syncSamplesBefore
        self.listedSyncSamples = listedSyncSamples
        self.listedStart = listedStart
        self.count = sampleTotal
        compositionOffsetRange = low <= high ? low...high : 0...0
    }

    /// The position in `runs` of the run holding sample `index`.
    private func runPosition(containing index: Int) -> Int? {
        guard index >= 0, index < count, !runs.isEmpty else { return nil }
        return BinarySearch.prefixCount(runs.count) { runs[$0].firstSample <= index } - 1
    }

    private func run(containing index: Int) -> FragmentRun? {
        runPosition(containing: index).map { runs[$0] }
    }

    /// Sample `index` (0-based, below `count`).
    public func sample(at index: Int) throws(MP4Error) -> Sample {
        guard let run = run(containing: index) else {
            throw MP4Error(.malformed, path: "moof/traf", offset: runs.first?.moofOffset ?? 0,
                           "fragment sample \(index) is out of range: the fragments have \(count)")
        }
        return run.sample(index - run.firstSample)
    }

    /// The sample index of the `n`th sync sample (0-based `n`, below `syncSampleCount`).
    func sampleIndex(ofSyncSample n: Int) -> Int {
        guard n >= 0, n < syncSampleCount else { return 0 }
        let position = BinarySearch.prefixCount(runs.count) { syncSamplesBefore[$0] <= n } - 1
        let run = runs[position]
        let within = n - syncSamplesBefore[position]
        switch run.syncPattern {
        case .all: return run.firstSample + within
        case .firstOnly: return run.firstSample
        case .allButFirst: return run.firstSample + 1 + within
        case .none: return run.firstSample  // not reached: such a run adds no sync sample
        case .perSample: return listedSyncSamples[listedStart[position] + within]
        }
    }

    /// The position in the sync list of the last sync sample at or before sample `index`.
    func syncIndex(atOrBefore index: Int) -> Int? {
        guard !runs.isEmpty, index >= runs[0].firstSample else { return nil }
        let position = BinarySearch.prefixCount(runs.count) { runs[$0].firstSample <= index } - 1
        let run = runs[position]
        let last = min(index, run.firstSample + run.sampleCount - 1) - run.firstSample  // within the run
        let atOrBefore: Int
        switch run.syncPattern {
        case .all: atOrBefore = last + 1
        case .firstOnly: atOrBefore = 1
        case .allButFirst: atOrBefore = last
        case .none: atOrBefore = 0
        case .perSample:
            let start = listedStart[position]
            let end = position + 1 < runs.count ? listedStart[position + 1] : listedSyncSamples.count
            atOrBefore = BinarySearch.prefixCount(end - start) { listedSyncSamples[start + $0] <= run.firstSample + last }
        }
        let total = syncSamplesBefore[position] + atOrBefore
        return total == 0 ? nil : total - 1
    }

    /// The dependency flags of sample `index`.
    public func dependency(of index: Int) -> SampleDependency? {
        guard let run = run(containing: index) else { return nil }
        return run.dependency(index - run.firstSample)
    }

    /// The last sample whose decode time is <= `time`.
    func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        guard let first = runs.first, time >= first.baseDecodeTime else { return nil }
        let run = runs[BinarySearch.prefixCount(runs.count) { runs[$0].baseDecodeTime <= time } - 1]
        return run.firstSample + run.lastSample(decodedAtOrBefore: time)
    }
}
