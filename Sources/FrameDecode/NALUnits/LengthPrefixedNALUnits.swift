/// The NAL units of one sample as stored in MP4: each prefixed by its length in 1, 2 or 4 bytes (ISO/IEC 14496-15, 4.3.2).
///
/// Splitting checks every length against the bytes left in the sample, so a
/// corrupt length is a typed error, never a read past the sample.
public enum LengthPrefixedNALUnits {
    /// The byte ranges of the NAL units in `bytes` (payloads without length prefixes). Zero-length units are skipped.
    /// - Throws: `DecodeError` `malformedSample` when a length field is cut off or a length runs past the sample.
    public static func ranges(in bytes: [UInt8], lengthSize: Int, sampleIndex: Int? = nil) throws(DecodeError) -> [Range<Int>] {
        guard [1, 2, 4].contains(lengthSize) else {
            throw DecodeError(.badConfiguration, sampleIndex: sampleIndex, "nal unit length size \(lengthSize)")
        }
        var ranges: [Range<Int>] = []
        var position = 0
        while position < bytes.count {
            guard bytes.count - position >= lengthSize else {
                throw DecodeError(.malformedSample, sampleIndex: sampleIndex,
                                  "nal length field cut off at byte \(position) of \(bytes.count)")
            }
            var length = 0
            for index in 0..<lengthSize { length = length << 8 | Int(bytes[position + index]) }
            position += lengthSize
            guard length <= bytes.count - position else {
                throw DecodeError(.malformedSample, sampleIndex: sampleIndex,
                                  "nal length \(length) at byte \(position - lengthSize) exceeds the \(bytes.count - position) bytes left in the sample")
            }
            if length > 0 { ranges.append(position..<position + length) }
            position += length
        }
        return ranges
    }

    /// The sample as an Annex B byte stream (4-byte start codes), with `prefix` NAL units first, in one copy.
    /// - Throws: `DecodeError` `malformedSample` as `ranges(in:lengthSize:)`.
    public static func annexB(_ bytes: [UInt8], lengthSize: Int, prefix: [[UInt8]] = [], sampleIndex: Int? = nil) throws(DecodeError) -> [UInt8] {
        let units = try ranges(in: bytes, lengthSize: lengthSize, sampleIndex: sampleIndex)
        let startCode: [UInt8] = [0, 0, 0, 1]
        var output: [UInt8] = []
        output.reserveCapacity(prefix.reduce(0) { $0 + $1.count + 4 } + units.reduce(0) { $0 + $1.count + 4 })
        for unit in prefix {
            output.append(contentsOf: startCode)
            output.append(contentsOf: unit)
        }
        for range in units {
            output.append(contentsOf: startCode)
            output.append(contentsOf: bytes[range])
        }
        return output
    }
}
