/// A track's samples behind one interface: those its stbl tables describe, then those of its movie fragments.
///
/// Most files have one part or the other; a partially fragmented file (samples in
/// moov and in moofs) has both, the fragments' samples numbered after moov's and
/// decoded after them. Lookups by index or decode time are O(log n) over runs;
/// tables stay as the raw bytes they were read from.
public struct SampleTable: Sendable {
    /// The samples described in moov (stbl); may be empty.
    let standard: StandardSampleTable?
    /// The samples of the movie fragments, numbered after `standard`'s; may be nil.
    let fragments: FragmentedSampleTable?

    init(standard: StandardSampleTable?, fragments: FragmentedSampleTable?) {
        self.standard = standard
        self.fragments = fragments
    }

    /// How many samples come from stbl.
    private var standardCount: Int { standard?.count ?? 0 }
    /// How many sync samples come from stbl.
    private var standardSyncCount: Int { standard?.syncSampleCount ?? 0 }

    /// The number of samples.
    public var count: Int { standardCount + (fragments?.count ?? 0) }

    /// Sample `index` (0-based).
    /// - Throws: `MP4Error` `malformed` when `index` is out of range or the tables cannot place the sample.
    public func sample(at index: Int) throws(MP4Error) -> Sample {
        if let standard, index < standard.count { return try standard.sample(at: index) }
        guard let fragments, index >= standardCount else {
            throw MP4Error(.malformed, path: standard?.path ?? "stbl", offset: standard?.offset ?? 0,
                           "sample \(index) is out of range: the track has \(count)")
        }
        var sample = try fragments.sample(at: index - standardCount)
        sample.index = index
        return sample
    }

    /// The number of sync samples.
    public var syncSampleCount: Int { standardSyncCount + (fragments?.syncSampleCount ?? 0) }

    /// The sample index of the `n`th sync sample (0-based `n`, below `syncSampleCount`).
    public func sampleIndex(ofSyncSample n: Int) -> Int {
        if let standard, n < standardSyncCount { return standard.sampleIndex(ofSyncSample: n) }
        return (fragments?.sampleIndex(ofSyncSample: n - standardSyncCount) ?? 0) + standardCount
    }

    /// The position in the sync list of the last sync sample at or before sample `index`.
    public func syncIndex(atOrBefore index: Int) -> Int? {
        if index < standardCount { return standard?.syncIndex(atOrBefore: index) }
        if let position = fragments?.syncIndex(atOrBefore: index - standardCount) { return position + standardSyncCount }
        return standardSyncCount > 0 ? standardSyncCount - 1 : nil
    }

    /// The dependency flags of sample `index` (sdtp, or fragment sample flags), if known.
    public func dependency(of index: Int) -> SampleDependency? {
        if index < standardCount { return standard?.dependency(of: index) }
        return fragments?.dependency(of: index - standardCount)
    }

    /// The smallest and largest composition offset of any sample.
    public var compositionOffsetRange: ClosedRange<Int64> {
        switch (standard.flatMap { $0.count > 0 ? $0.compositionOffsetRange : nil }, fragments?.compositionOffsetRange) {
        case let (moov?, fragments?): min(moov.lowerBound, fragments.lowerBound)...max(moov.upperBound, fragments.upperBound)
        case let (moov?, nil): moov
        case let (nil, fragments?): fragments
        case (nil, nil): 0...0
        }
    }

    /// The last sample (in decode order) whose decode time is <= `time`, or nil.
    public func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        if let fragments, let index = fragments.lastSample(decodedAtOrBefore: time) { return index + standardCount }
        guard let standard, standard.count > 0 else { return nil }
        return standard.lastSample(decodedAtOrBefore: time)
    }

    /// Whether any samples come from movie fragments.
    public var isFragmented: Bool { (fragments?.count ?? 0) > 0 }
}
