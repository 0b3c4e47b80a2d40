/// One trun of one track fragment, with everything needed to locate its samples.
///
/// Nothing here is sized by the run's sample count alone: a run without per-sample fields (a 20-byte trun may
/// claim 50 million samples) is computed from its defaults; one with fields is walked over its entries, from
/// checkpoints kept every `checkpointSpacing` samples, which its bytes back.
struct FragmentRun: Sendable {
    /// Which of the run's samples are sync samples.
    enum SyncPattern: Sendable {
        /// Every sample (no per-sample flags, sync defaults).
        case all
        /// The first sample only (first-sample flags sync, the default not).
        case firstOnly
        /// All but the first (first-sample flags not sync, the default sync).
        case allButFirst
        /// None.
        case none
        /// Each sample's own flags say.
        case perSample
    }

    /// Index (in the whole track) of the run's first sample.
    let firstSample: Int
    /// Number of samples.
    let sampleCount: Int
    /// Absolute file offset of the first sample's data.
    let dataOffset: UInt64
    /// Decode time of the first sample.
    let baseDecodeTime: Int64
    /// Total duration of the run.
    let totalDuration: Int64
    /// Total data size of the run.
    let totalSize: UInt64
    let run: TrackRunBox
    let defaultDuration: UInt32
    let defaultSize: UInt32
    let defaultFlags: UInt32
    let descriptionIndex: UInt32
    /// File offset of the moof holding this run.
    let moofOffset: UInt64
    /// Which samples are sync samples.
    let syncPattern: SyncPattern

    private let durationField: Int?
    private let sizeField: Int?
    private let flagsField: Int?
    private let offsetField: Int?
    /// Data offset and decode time of every `checkpointSpacing`-th sample, for runs with duration or size fields.
    private let checkpoints: [(offset: UInt64, time: Int64)]
    /// Samples walked at most to place one (as `StandardSampleTable.checkpointSpacing`), for 16 bytes per 256 samples.
    static let checkpointSpacing = 256

    init(firstSample: Int, dataOffset: UInt64, baseDecodeTime: Int64, run: TrackRunBox, defaultDuration: UInt32,
         defaultSize: UInt32, defaultFlags: UInt32, descriptionIndex: UInt32, moofOffset: UInt64) {
        self.firstSample = firstSample
        self.sampleCount = Int(run.sampleCount)
        self.dataOffset = dataOffset
        self.baseDecodeTime = baseDecodeTime
        self.run = run
        self.defaultDuration = defaultDuration
        self.defaultSize = defaultSize
        self.defaultFlags = defaultFlags
        self.descriptionIndex = descriptionIndex
        self.moofOffset = moofOffset
        durationField = run.fieldOffset(0x100)
        sizeField = run.fieldOffset(0x200)
        flagsField = run.fieldOffset(0x400)
        offsetField = run.fieldOffset(0x800)
        var duration: Int64 = 0
        var size: UInt64 = 0
        var checkpoints: [(offset: UInt64, time: Int64)] = []
        if durationField == nil { duration = Int64(defaultDuration) * Int64(sampleCount) }
        if sizeField == nil { size = UInt64(defaultSize) * UInt64(sampleCount) }
        if durationField != nil || sizeField != nil {
            // Backed by the entries: each of these samples has at least 4 bytes in the trun.
            for index in 0..<sampleCount {
                if index % Self.checkpointSpacing == 0 {
                    checkpoints.append((dataOffset &+ (sizeField == nil ? UInt64(defaultSize) * UInt64(index) : size),
                                        baseDecodeTime &+ (durationField == nil ? Int64(defaultDuration) * Int64(index) : duration)))
                }
                if let field = durationField { duration += Int64(run.entries.uint32(index, field)) }
                if let field = sizeField { size += UInt64(run.entries.uint32(index, field)) }
            }
        }
        self.checkpoints = checkpoints
        totalDuration = duration
        totalSize = size
        if flagsField != nil {
            syncPattern = .perSample
        } else {
            let firstIsSync = (run.firstSampleFlags ?? defaultFlags) & 0x1_0000 == 0
            let restAreSync = defaultFlags & 0x1_0000 == 0
            switch (firstIsSync, restAreSync || sampleCount == 1) {
            case (true, true): syncPattern = .all
            case (true, false): syncPattern = .firstOnly
            case (false, true): syncPattern = sampleCount == 1 ? .none : .allButFirst
            case (false, false): syncPattern = .none
            }
        }
    }

    func duration(_ index: Int) -> UInt32 { durationField.map { run.entries.uint32(index, $0) } ?? defaultDuration }
    func size(_ index: Int) -> UInt32 { sizeField.map { run.entries.uint32(index, $0) } ?? defaultSize }
    func flags(_ index: Int) -> UInt32 {
        if let field = flagsField { return run.entries.uint32(index, field) }
        if index == 0, let first = run.firstSampleFlags { return first }
        return defaultFlags
    }
    func compositionOffset(_ index: Int) -> Int64 {
        guard let field = offsetField else { return 0 }
        let raw = run.entries.uint32(index, field)
        return run.version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
    }
    /// Whether the samples carry their own composition offsets.
    var hasCompositionOffsets: Bool { offsetField != nil }

    /// The number of sync samples the pattern implies; nil for `.perSample`, whose samples say each for itself.
    var patternSyncCount: Int? {
        switch syncPattern {
        case .all: sampleCount
        case .firstOnly: 1
        case .allButFirst: sampleCount - 1
        case .none: 0
        case .perSample: nil
        }
    }

    /// Data offset and decode time of sample `index`, walked from the nearest checkpoint.
    private func position(of index: Int) -> (offset: UInt64, time: Int64) {
        guard durationField != nil || sizeField != nil else {
            return (dataOffset &+ UInt64(defaultSize) &* UInt64(index), baseDecodeTime &+ Int64(defaultDuration) &* Int64(index))
        }
        let start = index / Self.checkpointSpacing * Self.checkpointSpacing
        var (offset, time) = checkpoints[index / Self.checkpointSpacing]
        for earlier in start..<index {
            offset &+= UInt64(size(earlier))
            time &+= Int64(duration(earlier))
        }
        return (offset, time)
    }

    /// Sample `index` within this run.
    func sample(_ index: Int) -> Sample {
        let (offset, time) = position(of: index)
        let sampleFlags = flags(index)
        return Sample(index: firstSample + index, offset: offset, size: size(index), decodeTime: time, duration: duration(index),
                      compositionOffset: compositionOffset(index), isSync: sampleFlags & 0x1_0000 == 0,
                      descriptionIndex: descriptionIndex)
    }

    /// The last sample of the run (index within it) decoded at or before `time`; the first when none is.
    func lastSample(decodedAtOrBefore time: Int64) -> Int {
        guard time >= baseDecodeTime else { return 0 }
        if durationField == nil {
            guard defaultDuration > 0 else { return sampleCount - 1 }
            return Int(min(Int64(sampleCount - 1), (time - baseDecodeTime) / Int64(defaultDuration)))
        }
        let checkpoint = max(0, BinarySearch.prefixCount(checkpoints.count) { checkpoints[$0].time <= time } - 1)
        var decodeTime = checkpoints[checkpoint].time
        var result = checkpoint * Self.checkpointSpacing
        for index in result..<sampleCount {
            if decodeTime > time { break }
            result = index
            decodeTime &+= Int64(duration(index))
        }
        return result
    }

    /// The dependency flags of sample `index`, from its sample flags.
    func dependency(_ index: Int) -> SampleDependency {
        SampleDependency(sdtpByte: UInt8(truncatingIfNeeded: flags(index) >> 20 & 0xFF))
    }
}
