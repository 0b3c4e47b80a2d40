/// Writes Roku's BIF (Base Index Frames) trick-play file: a 64-byte header (the magic `89 42 49 46 0D 0A 1A 0A`,
/// version 0, the image count, the framewise separation in milliseconds, 44 reserved zero bytes), an index of
/// (timestamp, absolute offset) pairs ending with timestamp `0xFFFFFFFF` and the offset where the data ends, then the
/// JPEG images; every number is 32-bit little-endian, and image n is shown from n × separation.
public enum BIFWriter {
    /// The file for `frames` (one JPEG per cue, in order), a cue every `interval` (to the nearest
    /// millisecond).
    /// - Throws: `StoryboardError` `invalidOption` when the interval is not 1 ms to 2^32 - 1 ms, or the file would
    ///   pass the 4 GiB its 32-bit offsets can address.
    public static func write(frames: [[UInt8]], interval: Duration) throws(StoryboardError) -> [UInt8] {
        let milliseconds = interval.nearestMilliseconds
        guard let separation = UInt32(exactly: milliseconds), separation > 0 else {
            throw StoryboardError(.invalidOption, "a BIF interval of \(milliseconds) ms is outside 1...\(UInt32.max)")
        }
        let dataStart = 64 + 8 * (frames.count + 1)
        let total = frames.reduce(dataStart) { $0 + $1.count }
        guard let count = UInt32(exactly: frames.count), total <= Int(UInt32.max) else {
            throw StoryboardError(.invalidOption, "\(frames.count) BIF images of \(total) bytes pass the 4 GiB a BIF can address")
        }
        var bytes: [UInt8] = [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes.reserveCapacity(total)
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(0)            // version
        append(count)
        append(separation)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 44))
        var offset = dataStart
        for (index, frame) in frames.enumerated() {
            append(UInt32(index))
            append(UInt32(offset))
            offset += frame.count
        }
        append(.max)
        append(UInt32(offset))
        for frame in frames { bytes.append(contentsOf: frame) }
        return bytes
    }
}
