/// One trun of one track fragment, with everything needed to locate its samples.
struct FragmentRun: Sendable {
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

    private let durationField: Int?
    private let sizeField: Int?
    private let flagsField: Int?
    private let offsetField: Int?

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
        if durationField == nil { duration = Int64(defaultDuration) * Int64(sampleCount) }
        if sizeField == nil { size = UInt64(defaultSize) * UInt64(sampleCount) }
        if durationField != nil || sizeField != nil {
            for index in 0..<sampleCount {
                if let field = durationField { duration += Int64(run.entries.uint32(index, field)) }
                if let field = sizeField { size += UInt64(run.entries.uint32(index, field)) }
            }
        }
        totalDuration = duration
        totalSize = size
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

    /// Sample `index` within this run.
    func sample(_ index: Int) -> Sample {
        var offset = dataOffset
        var time = baseDecodeTime
        for earlier in 0..<index {
            offset &+= UInt64(size(earlier))
            time &+= Int64(duration(earlier))
        }
        let sampleFlags = flags(index)
        return Sample(index: firstSample + index, offset: offset, size: size(index), decodeTime: time, duration: duration(index),
                      compositionOffset: compositionOffset(index), isSync: sampleFlags & 0x1_0000 == 0,
                      descriptionIndex: descriptionIndex)
    }

    /// The dependency flags of sample `index`, from its sample flags.
    func dependency(_ index: Int) -> SampleDependency {
        SampleDependency(sdtpByte: UInt8(truncatingIfNeeded: flags(index) >> 20 & 0xFF))
    }
}
