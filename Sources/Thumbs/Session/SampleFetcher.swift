import ByteSources
import MP4Box

/// Reads the bytes of planned samples from a byte source, in as few reads as the layout allows.
public enum SampleFetcher {
    /// Reads `samples`, merging ranges closer than `maximumGap`, the merged ranges asked for together
    /// (`ByteSource.read(ranges:)`: one request over HTTP where the server answers several ranges); bytes inside
    /// `held` (read while locating the index or its fragments) are taken from there: a sample held whole costs no
    /// read, one whose start is held costs a read of the rest.
    /// Returns each sample's bytes, by sample index.
    /// - Throws: `ThumbnailError` `sampleOutOfRange` when a read comes back short; whatever the source throws.
    public static func fetch(_ samples: [Sample], from source: any ByteSource, held: HeldBytes = HeldBytes(),
                             maximumGap: UInt64 = 0) async throws -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        var missing: [(sample: Sample, start: [UInt8], rest: Range<UInt64>)] = []
        for sample in samples {
            let start = held.prefix(of: sample.byteRange)
            if start.count == sample.byteRange.count {
                result[sample.index] = start
            } else {
                missing.append((sample, start, sample.byteRange.lowerBound + UInt64(start.count)..<sample.byteRange.upperBound))
            }
        }
        let ranges = SampleRanges.coalesce(missing.map(\.rest), maximumGap: maximumGap)
        let read = ranges.count == 1 ? [try await source.read(ranges[0])] : try await source.read(ranges: ranges)
        var chunks: [(range: Range<UInt64>, bytes: [UInt8])] = []
        for (range, bytes) in zip(ranges, read) {
            guard bytes.count == range.count else {
                throw ThumbnailError(.sampleOutOfRange,
                                     "bytes \(ByteRange.text(range)) run past the end of the file (\(bytes.count) of them read)")
            }
            chunks.append((range, bytes))
        }
        for (sample, start, rest) in missing {
            guard let chunk = chunks.first(where: { $0.range.lowerBound <= rest.lowerBound && rest.upperBound <= $0.range.upperBound })
            else { continue }
            let offset = Int(rest.lowerBound - chunk.range.lowerBound)
            result[sample.index] = start + chunk.bytes[offset..<offset + rest.count]
        }
        return result
    }
}
