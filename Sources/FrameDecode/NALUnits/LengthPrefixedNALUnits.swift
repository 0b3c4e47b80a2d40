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
            if length > 0 { appendSplittingStartCodes(position..<position + length, of: bytes, to: &ranges) }
            position += length
        }
        return ranges
    }

    /// Appends `unit`, split where it holds Annex B start codes.
    ///
    /// Some muxers (Samsung's slow-motion recorder) put several NAL units, separated by start codes, behind one
    /// length prefix. A real NAL unit cannot contain 00 00 01 (emulation prevention, H.264 7.4.1 and H.265
    /// 7.4.2), so a start code inside a unit is always such a separator; the zero bytes before it go with it.
    static func appendSplittingStartCodes(_ unit: Range<Int>, of bytes: [UInt8], to ranges: inout [Range<Int>]) {
        var start = unit.lowerBound
        var index = unit.lowerBound
        bytes.withUnsafeBufferPointer { buffer in
            while index + 2 < unit.upperBound {
                if buffer[index + 2] > 1 {
                    index += 3
                } else if buffer[index] == 0 && buffer[index + 1] == 0 && buffer[index + 2] == 1 {
                    var end = index
                    while end > start && buffer[end - 1] == 0 { end -= 1 }
                    if end > start { ranges.append(start..<end) }
                    start = index + 3
                    index = start
                } else {
                    index += 1
                }
            }
        }
        if start < unit.upperBound { ranges.append(start..<unit.upperBound) }
    }

    /// The sample as an Annex B byte stream (4-byte start codes), with `prefix` NAL units first, in one copy,
    /// leaving out the units whose header byte `keeps` refuses.
    /// - Throws: `DecodeError` `malformedSample` as `ranges(in:lengthSize:)`.
    public static func annexB(_ bytes: [UInt8], lengthSize: Int, prefix: [[UInt8]] = [], sampleIndex: Int? = nil,
                              keeps: (UInt8) -> Bool = { _ in true }) throws(DecodeError) -> [UInt8] {
        let units = try ranges(in: bytes, lengthSize: lengthSize, sampleIndex: sampleIndex).filter { keeps(bytes[$0.lowerBound]) }
        return annexB(bytes, units: units, prefix: prefix)
    }

    /// `units` of `bytes` (ranges from `ranges(in:lengthSize:)`) as an Annex B byte stream, `prefix` first, in one
    /// copy; a unit for which `replacement` gives bytes is written as those bytes instead.
    public static func annexB(_ bytes: [UInt8], units: [Range<Int>], prefix: [[UInt8]] = [],
                              replacement: (Range<Int>) -> [UInt8]? = { _ in nil }) -> [UInt8] {
        let startCode: [UInt8] = [0, 0, 0, 1]
        var output: [UInt8] = []
        output.reserveCapacity(prefix.reduce(0) { $0 + $1.count + 4 } + units.reduce(0) { $0 + $1.count + 4 })
        for unit in prefix {
            output.append(contentsOf: startCode)
            output.append(contentsOf: unit)
        }
        for range in units {
            output.append(contentsOf: startCode)
            if let replaced = replacement(range) {
                output.append(contentsOf: replaced)
            } else {
                output.append(contentsOf: bytes[range])
            }
        }
        return output
    }

    /// Whether an H.264 NAL unit belongs to the base layer: not a prefix NAL unit (14), subset SPS (15) or coded
    /// slice extension (20) of SVC/MVC (ITU-T H.264 Annex G/H), which a base-layer decoder ignores (7.4.1.2.3).
    /// Temporal-layer recordings (slow motion from Samsung and Android phones) put a prefix NAL unit before
    /// every slice; openh264 2.3 refuses them as a bitstream error.
    public static func isH264BaseLayer(_ header: UInt8) -> Bool {
        let type = header & 0x1F
        return type != 14 && type != 15 && type != 20
    }
}
