/// Sample-to-chunk runs and chunk offsets: where each sample's bytes are.
struct ChunkMap: Sendable {
    let stsc: RawTable
    let chunkOffsets: EntryTableBox?
    /// First sample of each stsc run, then the total the runs cover.
    let index: RunIndex

    /// Builds the index, checking that runs ascend from chunk 1.
    ///
    /// Runs may name chunks that stco/co64 does not have, or cover fewer samples
    /// than stsz counts: `heldSampleCount` is what the chunks that exist hold,
    /// and the track keeps those samples (as ffmpeg and Media3 do).
    /// - Throws: `MP4Error` `malformed` when a run's first chunk is 0 or out of order.
    init(stsc box: EntryTableBox?, offsets: EntryTableBox?, sampleCount: Int, path: String, limits: ParseLimits) throws(MP4Error) {
        stsc = box?.entries ?? .empty
        chunkOffsets = offsets
        let chunkCount = UInt64(offsets?.entries.count ?? 0)
        var samples = [0]
        samples.reserveCapacity(stsc.count + 1)
        var total: UInt64 = 0
        var largest: UInt64 = 0
        for run in 0..<stsc.count {
            let firstChunk = UInt64(stsc.uint32(run, 0))
            let perChunk = UInt64(stsc.uint32(run, 4))
            let entryOffset = stsc.fileOffset + UInt64(run * 12)
            let nextFirstChunk = run + 1 < stsc.count ? UInt64(stsc.uint32(run + 1, 0)) : chunkCount + 1
            guard firstChunk >= 1, firstChunk <= max(nextFirstChunk, chunkCount + 1), (run > 0 || firstChunk == 1) else {
                throw MP4Error(.malformed, path: path + "/stsc", offset: entryOffset,
                               "first chunk \(firstChunk) is out of order (next \(nextFirstChunk))")
            }
            // Only chunks that have an offset hold samples.
            let lastChunk = min(nextFirstChunk, chunkCount + 1)
            let chunks = lastChunk > firstChunk ? lastChunk - firstChunk : 0
            if chunks > 0 { largest = max(largest, perChunk) }
            let (runSamples, overflow) = chunks.multipliedReportingOverflow(by: perChunk)
            total += overflow ? UInt64.max / 2 : runSamples
            total = min(total, UInt64(limits.maximumSampleCount) + 1)
            samples.append(Int(total))
        }
        heldSampleCount = Int(min(total, UInt64(sampleCount)))
        largestChunkSampleCount = Int(min(largest, UInt64(heldSampleCount)))
        index = RunIndex(firstSample: samples)
    }

    /// How many of the track's samples the chunks that exist hold (at most stsz's count).
    let heldSampleCount: Int

    /// The most samples any chunk holds.
    let largestChunkSampleCount: Int

    /// The chunk (0-based) holding `sample`, the first sample of that chunk, and its sample description index.
    func chunk(of sample: Int) -> (chunk: Int, firstSample: Int, descriptionIndex: UInt32)? {
        guard let run = index.run(containing: sample) else { return nil }
        let perChunk = Int(stsc.uint32(run, 4))
        guard perChunk > 0 else { return nil }
        let within = sample - index.firstSample[run]
        let chunk = Int(stsc.uint32(run, 0)) - 1 + within / perChunk
        return (chunk, sample - within % perChunk, stsc.uint32(run, 8))
    }
}
