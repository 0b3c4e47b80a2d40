/// Writes bits and Exp-Golomb codes into an RBSP, and escapes it back into NAL unit bytes (the inverse of
/// `BitReader`, for rewriting a parameter set). Package-wide: FrameDecode rewrites an SPS for openh264 with it, and test
/// movies escape their parameter sets the same way (`escaped` is checked against hand-made vectors in
/// `H264ParameterSetRewriteTests`).
package struct BitWriter {
    package private(set) var bytes: [UInt8] = []
    private var count = 0

    /// An empty RBSP.
    package init() {}

    /// Appends one bit.
    package mutating func append(_ bit: Bool) {
        if count % 8 == 0 { bytes.append(0) }
        if bit { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
        count += 1
    }

    /// Appends the bits of `source` in `range` (bit positions, the first bit of a byte its most significant).
    package mutating func append(bits source: [UInt8], range: Range<Int>) {
        for position in range {
            append(source[position / 8] & (0x80 >> UInt8(position % 8)) != 0)
        }
    }

    /// Appends `value` as ue(v).
    package mutating func appendUE(_ value: UInt32) {
        let coded = UInt64(value) + 1
        let width = 64 - coded.leadingZeroBitCount
        for _ in 1..<width { append(false) }
        for shift in stride(from: width - 1, through: 0, by: -1) { append(coded >> UInt64(shift) & 1 == 1) }
    }

    /// Appends rbsp_trailing_bits: a one, then zeros to the byte's end.
    package mutating func appendTrailingBits() {
        append(true)
        while count % 8 != 0 { append(false) }
    }

    /// `rbsp` with emulation prevention: a 03 after every two zero bytes that a byte of 00 to 03 follows.
    package static func escaped(_ rbsp: [UInt8]) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(rbsp.count + rbsp.count / 64)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 3 {
                escaped.append(3)
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return escaped
    }
}
