/// The CRC that closes every PSI section (ISO/IEC 13818-1, Annex A): polynomial 0x04C11DB7, initial value all ones,
/// no reflection, no final exclusive or. Over a whole section, its CRC field included, it is zero.
enum CRC32MPEG2 {
    private static let table: [UInt32] = (0 ..< 256).map { index in
        var value = UInt32(index) << 24
        for _ in 0 ..< 8 {
            value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1
        }
        return value
    }

    /// The CRC of `bytes`.
    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
        }
        return crc
    }
}
