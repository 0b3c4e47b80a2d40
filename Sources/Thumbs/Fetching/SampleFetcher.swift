import MP4Box

/// Reads the bytes of planned samples from a byte source, in as few reads as the layout allows.
public enum SampleFetcher {
    /// Reads `samples`, merging ranges closer than `maximumGap`, with at most `concurrency` reads at once; samples
    /// inside `held` (bytes read while locating the index) are taken from there without a read.
    /// Returns each sample's bytes, by sample index.
    /// - Throws: `ThumbnailError` `sampleOutOfRange` when a read comes back short; whatever the source throws.
    public static func fetch(_ samples: [Sample], from source: any ByteSource, held: HeldBytes = HeldBytes(),
                             maximumGap: UInt64 = 0, concurrency: Int = 4) async throws -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        var missing: [Sample] = []
        for sample in samples {
            if let bytes = held.bytes(sample.byteRange) { result[sample.index] = bytes } else { missing.append(sample) }
        }
        let ranges = SampleRanges.coalesce(missing.map(\.byteRange), maximumGap: maximumGap)
        var chunks: [(range: Range<UInt64>, bytes: [UInt8])] = []
        try await withThrowingTaskGroup(of: (Range<UInt64>, [UInt8]).self) { group in
            var next = 0
            func enqueue() {
                guard next < ranges.count else { return }
                let range = ranges[next]
                next += 1
                group.addTask { (range, try await source.read(range)) }
            }
            for _ in 0..<max(1, concurrency) { enqueue() }
            while let (range, bytes) = try await group.next() {
                guard bytes.count == range.count else {
                    throw ThumbnailError(.sampleOutOfRange,
                                         "bytes \(ByteRange.text(range)) run past the end of the file (\(bytes.count) of them read)")
                }
                chunks.append((range, bytes))
                enqueue()
            }
        }
        for sample in missing {
            guard let chunk = chunks.first(where: { $0.range.contains(sample.offset) || ($0.range.lowerBound == sample.offset) }) else {
                continue
            }
            let start = Int(sample.offset - chunk.range.lowerBound)
            result[sample.index] = Array(chunk.bytes[start..<start + Int(sample.size)])
        }
        return result
    }
}
