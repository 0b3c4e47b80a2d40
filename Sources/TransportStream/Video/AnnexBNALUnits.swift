/// The NAL units of an Annex B byte stream (ITU-T H.264 and H.265, Annex B): each follows a start code 00 00 01 (or
/// 00 00 00 01); zero bytes that trail a unit belong to no unit.
public enum AnnexBNALUnits {
    /// The NAL units of `bytes`, without start codes; bytes before the first start code are left out. With
    /// `keepsTrailingZeros` (MPEG-2 video, whose units this splits too: a slice's last byte may be zero and still be
    /// data), a unit keeps every zero byte before the next start code, so the units joined again after start codes are
    /// the stream's bytes.
    public static func split(_ bytes: ArraySlice<UInt8>, keepsTrailingZeros: Bool = false) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var unitStart: Int?
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index + 2 < end {
            if bytes[index + 2] > 1 {
                index += 3
            } else if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let start = unitStart { units.append(keepsTrailingZeros ? bytes[start ..< index] : trimmed(bytes[start ..< index])) }
                index += 3
                unitStart = index
            } else {
                index += 1
            }
        }
        if let start = unitStart, start < end { units.append(keepsTrailingZeros ? bytes[start ..< end] : trimmed(bytes[start ..< end])) }
        return units.filter { !$0.isEmpty }
    }

    /// Whether `bytes` start with a start code (00 00 01, or 00 00 00 01): an Annex B byte stream rather than NAL units
    /// behind length prefixes.
    public static func startsWithStartCode(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(4))
        return head.starts(with: [0, 0, 1]) || head == [0, 0, 0, 1]
    }

    /// `unit` without the zero bytes that follow it (the leading zero of a four-byte start code, trailing zeros).
    private static func trimmed(_ unit: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = unit.endIndex
        while end > unit.startIndex, unit[end - 1] == 0 { end -= 1 }
        return unit[unit.startIndex ..< end]
    }
}
