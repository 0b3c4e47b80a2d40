/// The samples of one track gathered from movie fragments (moof/traf/trun), read on demand.
public struct FragmentedSampleTable: Sendable {
    /// The number of samples in all fragments read.
    public let count: Int
    let runs: [FragmentRun]
    /// Sample indices of sync samples, ascending.
    let syncSamples: [Int]
    let compositionOffsetRange: ClosedRange<Int64>

    /// Gathers the runs of `trackID` from `fragments` (moof boxes in file order).
    /// - Throws: `MP4Error` `malformed` when a run's data offset is out of range, `limitExceeded` past `limits`.
    init(trackID: UInt32, fragments: [ContainerBox], defaults: TrackExtendsBox?, initialDecodeTime: Int64 = 0,
         limits: ParseLimits) throws(MP4Error) {
        var runs: [FragmentRun] = []
        var syncSamples: [Int] = []
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
                    for index in 0..<fragmentRun.sampleCount {
                        if fragmentRun.flags(index) & 0x1_0000 == 0 { syncSamples.append(fragmentRun.firstSample + index) }
                        let offset = fragmentRun.compositionOffset(index)
                        low = min(low, offset)
                        high = max(high, offset)
                    }
                    nextDecodeTime = nextDecodeTime.saturatingAdd(fragmentRun.totalDuration)
                    runDataOffset = end
                    previousTrafEnd = end
                    if fragmentRun.sampleCount > 0 { runs.append(fragmentRun) }
                }
            }
        }
        self.runs = runs
        self.syncSamples = syncSamples
        self.count = sampleTotal
        compositionOffsetRange = low <= high ? low...high : 0...0
    }

    private func run(containing index: Int) -> FragmentRun? {
        guard index >= 0, index < count else { return nil }
        var low = 0
        var high = runs.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if runs[middle].firstSample <= index { low = middle } else { high = middle }
        }
        return runs[low]
    }

    /// Sample `index` (0-based, below `count`).
    public func sample(at index: Int) throws(MP4Error) -> Sample {
        guard let run = run(containing: index) else {
            throw MP4Error(.malformed, path: "moof", offset: 0, "sample \(index) is out of range 0..<\(count)")
        }
        return run.sample(index - run.firstSample)
    }

    /// The position in `syncSamples` of the last sync sample at or before sample `index`.
    func syncIndex(atOrBefore index: Int) -> Int? {
        var low = 0
        var high = syncSamples.count
        while low < high {
            let middle = (low + high) / 2
            if syncSamples[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The dependency flags of sample `index`.
    public func dependency(of index: Int) -> SampleDependency? {
        guard let run = run(containing: index) else { return nil }
        return run.dependency(index - run.firstSample)
    }

    /// The last sample whose decode time is <= `time`.
    func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        guard let first = runs.first, time >= first.baseDecodeTime else { return nil }
        var low = 0
        var high = runs.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if runs[middle].baseDecodeTime <= time { low = middle } else { high = middle }
        }
        let run = runs[low]
        var decodeTime = run.baseDecodeTime
        var result = run.firstSample
        for index in 0..<run.sampleCount {
            if decodeTime > time { break }
            result = run.firstSample + index
            decodeTime += Int64(run.duration(index))
        }
        return result
    }
}
