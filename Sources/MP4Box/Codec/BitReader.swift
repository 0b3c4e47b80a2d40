/// Reads bits, Exp-Golomb codes and flags from a NAL unit payload (RBSP) or an AV1 OBU payload.
///
/// Built from the escaped NAL bytes: emulation-prevention bytes (00 00 03)
/// are dropped. Every read is bounds-checked and throws `needMoreBytes`.
struct BitReader {
    private let bytes: [UInt8]
    private var bitPosition = 0
    private let name: String

    /// A reader over the RBSP of `nal`, skipping the first `headerBytes` NAL header bytes.
    init<C: Collection>(nal: C, headerBytes: Int, name: String) where C.Element == UInt8 {
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal.dropFirst(headerBytes) {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        bytes = rbsp
        self.name = name
    }

    /// A reader over `bytes` as they are (no emulation prevention: AV1 OBU payloads).
    init<C: Collection>(bytes: C, name: String) where C.Element == UInt8 {
        self.bytes = Array(bytes)
        self.name = name
    }

    /// Bits read so far.
    var position: Int { bitPosition }

    /// The bytes read (for a NAL unit, its RBSP: without header and emulation prevention).
    var rbsp: [UInt8] { bytes }

    /// The position of the last bit set (an RBSP's stop bit), nil when none is.
    var lastSetBit: Int? {
        guard let index = bytes.lastIndex(where: { $0 != 0 }) else { return nil }
        return index * 8 + 7 - bytes[index].trailingZeroBitCount
    }

    private func overrun() -> MP4Error {
        MP4Error(.needMoreBytes, path: name, offset: UInt64(bitPosition / 8), "parameter set ends early")
    }

    /// Reads `count` (at most 32) bits, most significant first.
    mutating func bits(_ count: Int) throws(MP4Error) -> UInt32 {
        guard count <= 32, bitPosition + count <= bytes.count * 8 else { throw overrun() }
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = bytes[bitPosition >> 3]
            let bit = (byte >> (7 - UInt8(bitPosition & 7))) & 1
            value = value << 1 | UInt32(bit)
            bitPosition += 1
        }
        return value
    }

    /// Reads one bit as a flag.
    mutating func flag() throws(MP4Error) -> Bool { try bits(1) == 1 }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws(MP4Error) {
        guard count >= 0, bitPosition + count <= bytes.count * 8 else { throw overrun() }
        bitPosition += count
    }

    /// Reads an unsigned Exp-Golomb code (ue(v)), at most 32 bits of value.
    mutating func ue() throws(MP4Error) -> UInt32 {
        var leadingZeros = 0
        while try bits(1) == 0 {
            leadingZeros += 1
            guard leadingZeros <= 31 else {
                throw MP4Error(.malformed, path: name, offset: UInt64(bitPosition / 8), "exp-golomb code longer than 32 bits")
            }
        }
        if leadingZeros == 0 { return 0 }
        let suffix = try bits(leadingZeros)
        return UInt32((UInt64(1) << UInt64(leadingZeros)) - 1 + UInt64(suffix))
    }

    /// Reads a signed Exp-Golomb code (se(v)).
    mutating func se() throws(MP4Error) -> Int32 {
        let code = try ue()
        let magnitude = Int32(truncatingIfNeeded: (UInt64(code) + 1) / 2)
        return code % 2 == 1 ? magnitude : -magnitude
    }

    /// Reads ue(v) and checks it is at most `maximum`.
    mutating func ue(max maximum: UInt32, _ field: String) throws(MP4Error) -> UInt32 {
        let value = try ue()
        guard value <= maximum else {
            throw MP4Error(.malformed, path: name, offset: UInt64(bitPosition / 8), "\(field) \(value) exceeds \(maximum)")
        }
        return value
    }
}
