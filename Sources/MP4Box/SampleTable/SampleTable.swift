/// A track's samples, from stbl tables or from movie fragments, behind one interface.
///
/// Lookups by index or decode time are O(log n) over runs; tables stay as the
/// raw bytes they were read from.
public struct SampleTable: Sendable {
    enum Storage: Sendable {
        case standard(StandardSampleTable)
        case fragmented(FragmentedSampleTable)
    }

    let storage: Storage

    /// The number of samples.
    public var count: Int {
        switch storage {
        case .standard(let table): table.count
        case .fragmented(let table): table.count
        }
    }

    /// Sample `index` (0-based).
    /// - Throws: `MP4Error` `malformed` when `index` is out of range or the tables cannot place the sample.
    public func sample(at index: Int) throws(MP4Error) -> Sample {
        switch storage {
        case .standard(let table): try table.sample(at: index)
        case .fragmented(let table): try table.sample(at: index)
        }
    }

    /// The number of sync samples.
    public var syncSampleCount: Int {
        switch storage {
        case .standard(let table): table.syncSampleCount
        case .fragmented(let table): table.syncSamples.count
        }
    }

    /// The sample index of the `n`th sync sample (0-based `n`, below `syncSampleCount`).
    public func syncSample(_ n: Int) -> Int {
        switch storage {
        case .standard(let table): table.syncSample(n)
        case .fragmented(let table): table.syncSamples[n]
        }
    }

    /// The position in the sync list of the last sync sample at or before sample `index`.
    public func syncIndex(atOrBefore index: Int) -> Int? {
        switch storage {
        case .standard(let table):
            return table.syncIndex(atOrBefore: index)
        case .fragmented(let table):
            var low = 0
            var high = table.syncSamples.count
            while low < high {
                let middle = (low + high) / 2
                if table.syncSamples[middle] <= index { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? nil : low - 1
        }
    }

    /// The dependency flags of sample `index` (sdtp, or fragment sample flags), if known.
    public func dependency(of index: Int) -> SampleDependency? {
        switch storage {
        case .standard(let table): table.dependency(of: index)
        case .fragmented(let table): table.dependency(of: index)
        }
    }

    /// The smallest and largest composition offset of any sample.
    public var compositionOffsetRange: ClosedRange<Int64> {
        switch storage {
        case .standard(let table): table.compositionOffsetRange
        case .fragmented(let table): table.compositionOffsetRange
        }
    }

    /// The last sample (in decode order) whose decode time is <= `time`, or nil.
    public func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        switch storage {
        case .standard(let table): table.lastSample(decodedAtOrBefore: time)
        case .fragmented(let table): table.lastSample(decodedAtOrBefore: time)
        }
    }

    /// Whether the samples come from movie fragments.
    public var isFragmented: Bool {
        if case .fragmented = storage { return true }
        return false
    }
}
