/// The samples of a track as described by its stbl boxes, read on demand from their raw bytes.
public struct StandardSampleTable: Sendable {
    /// The number of samples: stsz's (or stz2's) count, or fewer when the chunks hold fewer.
    public let count: Int
    let sizes: SampleSizeBox?
    let timing: TimeToSampleMap
    let composition: CompositionOffsetMap
    let chunks: ChunkMap
    let syncSamples: RawTable?
    let dependencies: RawTable?
    /// The stbl's box path and offset, for errors.
    let path: String
    let offset: UInt64
    /// With a size table and a chunk of more than `checkpointSpacing` samples: for every `checkpointSpacing`-th
    /// sample, the sizes of all samples before it, so that placing a sample walks at most that many sizes.
    private let sizeCheckpoints: [UInt64]
    /// Samples walked at most to place one. 256: a lookup walks at most 510 sizes (it walked up to 8,190 at 4,096,
    /// which made sample lookups in long chunks most of a parse-and-look-up's time), for 8 bytes per 256 samples.
    static let checkpointSpacing = 256

    /// Reads the tables of `stbl` and checks that they agree.
    /// - Throws: `MP4Error` `malformed` when stts covers fewer samples than stsz or stsc runs are out of order; `limitExceeded` past `limits`.
    init(stbl: ContainerBox, path: String, limits: ParseLimits, diagnostics: inout [ParseDiagnostic]) throws(MP4Error) {
        sizes = stbl.first(SampleSizeBox.self)
        self.path = path
        offset = stbl.header.offset
        let sampleCount = Int(sizes?.sampleCount ?? 0)
        if sizes == nil && stbl.table(.timeToSample).map({ $0.entries.count > 0 }) == true {
            throw MP4Error(.malformed, path: path, offset: stbl.header.offset, "stbl has stts entries but no stsz or stz2")
        }
        timing = try TimeToSampleMap(box: stbl.table(.timeToSample), path: path + "/stts", limits: limits)
        guard timing.sampleCount >= sampleCount else {
            throw MP4Error(.malformed, path: path + "/stts", offset: stbl.table(.timeToSample)?.header.offset ?? stbl.header.offset,
                           "stts covers \(timing.sampleCount) samples, stsz has \(sampleCount)")
        }
        if timing.sampleCount > sampleCount {
            diagnostics.append(ParseDiagnostic(path: path + "/stts", offset: stbl.header.offset,
                                               detail: "stts covers \(timing.sampleCount) samples, stsz has \(sampleCount)"))
        }
        composition = try CompositionOffsetMap(box: stbl.table(.compositionOffset), path: path + "/ctts", limits: limits)
        chunks = try ChunkMap(stsc: stbl.table(.sampleToChunk), offsets: stbl.table(.chunkOffset),
                              sampleCount: sampleCount, path: path, limits: limits)
        if chunks.heldSampleCount < sampleCount {
            diagnostics.append(ParseDiagnostic(path: path + "/stsc", offset: stbl.table(.sampleToChunk)?.header.offset ?? stbl.header.offset,
                                               detail: "chunks hold \(chunks.heldSampleCount) of the \(sampleCount) samples stsz counts; the rest are left out"))
        }
        if let stss = stbl.table(.syncSample) {
            var previous: UInt32 = 0
            for entry in 0..<stss.entries.count {
                let number = stss.entries.uint32(entry)
                guard number > previous else {
                    throw MP4Error(.malformed, path: path + "/stss", offset: stss.entries.fileOffset + UInt64(entry * 4),
                                   "sync sample \(number) does not ascend")
                }
                previous = number
            }
            syncSamples = stss.entries
        } else {
            syncSamples = nil
        }
        if let sdtp = stbl.first(SampleDependencyTypeBox.self) {
            if sdtp.flags.count < sampleCount {
                diagnostics.append(ParseDiagnostic(path: path + "/sdtp", offset: sdtp.header.offset,
                                                   detail: "sdtp has \(sdtp.flags.count) entries for \(sampleCount) samples"))
            }
            dependencies = sdtp.flags
        } else {
            dependencies = nil
        }
        count = chunks.heldSampleCount
        var checkpoints: [UInt64] = []
        if let sizes, sizes.constantSize == 0, chunks.largestChunkSampleCount > Self.checkpointSpacing {
            // Backed by the size table: one checkpoint per `checkpointSpacing` of its entries.
            var total: UInt64 = 0
            for index in 0..<count {
                if index % Self.checkpointSpacing == 0 { checkpoints.append(total) }
                total += UInt64(sizes.size(of: index))
            }
        }
        sizeCheckpoints = checkpoints
        // stss entries past the last sample (stss names more samples than the chunks hold) are not sync samples here.
        let held = chunks.heldSampleCount
        syncSampleCount = syncSamples.map { Self.entries(of: $0, among: $0.count, numberedAtMost: held) } ?? held
    }

    /// Sample `index` (0-based, below `count`).
    /// - Throws: `MP4Error` `malformed` when its chunk is missing or its offset overflows.
    public func sample(at index: Int) throws(MP4Error) -> Sample {
        guard index >= 0, index < count, let sizes else {
            throw MP4Error(.malformed, path: path, offset: offset, "sample \(index) is out of range: the track has \(count)")
        }
        guard let location = chunks.chunk(of: index), let offsets = chunks.chunkOffsets,
              location.chunk < offsets.entries.count else {
            throw MP4Error(.malformed, path: path + "/stsc", offset: chunks.stsc.fileOffset, "no chunk holds sample \(index)")
        }
        let (offset, overflow) = offsets.chunkOffset(location.chunk)
            .addingReportingOverflow(bytesBefore(index, inChunkFrom: location.firstSample, sizes: sizes))
        guard !overflow else {
            throw MP4Error(.malformed, path: path + "/" + offsets.header.type.description, offset: offsets.entries.fileOffset,
                           "offset of sample \(index) overflows")
        }
        let (decodeTime, duration) = timing.timing(of: index)
        return Sample(index: index, offset: offset, size: sizes.size(of: index), decodeTime: decodeTime, duration: duration,
                      compositionOffset: composition.offset(of: index), isSync: isSync(index),
                      descriptionIndex: location.descriptionIndex)
    }

    /// The bytes of the samples from `first` (the first of its chunk) up to `index`: O(1) for a constant size,
    /// else at most `checkpointSpacing` sizes walked. Sums of 32-bit sizes of at most 2^32 samples cannot overflow.
    private func bytesBefore(_ index: Int, inChunkFrom first: Int, sizes: SampleSizeBox) -> UInt64 {
        if sizes.constantSize != 0 { return UInt64(index - first) * UInt64(sizes.constantSize) }
        func sum(_ range: Range<Int>) -> UInt64 { range.reduce(0) { $0 + UInt64(sizes.size(of: $1)) } }
        guard !sizeCheckpoints.isEmpty, index - first > Self.checkpointSpacing else { return sum(first..<index) }
        func total(upTo end: Int) -> UInt64 {
            let checkpoint = end / Self.checkpointSpacing
            return sizeCheckpoints[checkpoint] + sum(checkpoint * Self.checkpointSpacing..<end)
        }
        return total(upTo: index) - total(upTo: first)
    }

    /// Whether sample `index` is a sync sample (every sample is, without stss).
    public func isSync(_ index: Int) -> Bool {
        guard let syncSamples else { return true }
        return syncIndex(atOrBefore: index).map { Int(syncSamples.uint32($0)) - 1 == index } ?? false
    }

    /// The number of sync samples (stss entries that name one of the samples).
    public let syncSampleCount: Int

    /// The sample index of the `n`th sync sample.
    public func sampleIndex(ofSyncSample n: Int) -> Int {
        guard let syncSamples else { return n }
        return Int(syncSamples.uint32(n)) - 1
    }

    /// The position in the sync list of the last sync sample at or before `index`.
    public func syncIndex(atOrBefore index: Int) -> Int? {
        guard let syncSamples else { return index >= 0 && index < count ? index : nil }
        let atOrBefore = Self.entries(of: syncSamples, among: syncSampleCount, numberedAtMost: index + 1)
        return atOrBefore == 0 ? nil : atOrBefore - 1
    }

    /// How many of the first `count` entries of the ascending stss table name sample numbers <= `number` (1-based).
    private static func entries(of stss: RawTable, among count: Int, numberedAtMost number: Int) -> Int {
        BinarySearch.prefixCount(count) { Int(stss.uint32($0)) <= number }
    }

    /// The sdtp flags of `index`, if the track has sdtp.
    public func dependency(of index: Int) -> SampleDependency? {
        guard let dependencies, index >= 0, index < dependencies.count else { return nil }
        return SampleDependency(sdtpByte: dependencies.uint8(index))
    }

    /// The smallest and largest composition offset.
    var compositionOffsetRange: ClosedRange<Int64> { composition.minimumOffset...composition.maximumOffset }

    /// The last sample whose decode time is <= `time`.
    func lastSample(decodedAtOrBefore time: Int64) -> Int? {
        timing.lastSample(decodedAtOrBefore: time).map { min($0, count - 1) }
    }
}
