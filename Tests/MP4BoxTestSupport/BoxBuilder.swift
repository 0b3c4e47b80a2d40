import MP4Box

/// Writes boxes byte by byte for tests, including boxes that lie about their sizes on purpose.
public enum BoxBuilder {
    /// A box: 32-bit size (the true size unless `size` lies), type, payload.
    public static func box(_ type: String, size: UInt32? = nil, _ payload: [UInt8] = []) -> [UInt8] {
        u32(size ?? UInt32(8 + payload.count)) + fourCC(type) + payload
    }

    /// A box with a 64-bit largesize.
    public static func largeBox(_ type: String, largeSize: UInt64? = nil, _ payload: [UInt8] = []) -> [UInt8] {
        u32(1) + fourCC(type) + u64(largeSize ?? UInt64(16 + payload.count)) + payload
    }

    /// A full box: size, type, version, 24-bit flags, payload.
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, size: UInt32? = nil, _ payload: [UInt8] = []) -> [UInt8] {
        box(type, size: size, [version] + u24(flags) + payload)
    }

    /// Four ASCII characters.
    public static func fourCC(_ code: String) -> [UInt8] {
        Array(code.utf8.prefix(4))
    }

    public static func u8(_ value: UInt8) -> [UInt8] { [value] }
    public static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public static func u24(_ value: UInt32) -> [UInt8] { [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    public static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    public static func i32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }
    public static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(value & 0xFFFF_FFFF)) }
    public static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

    /// A transformation matrix from its linear part (whole numbers) and translation.
    /// `unit` is what 1 is written as: 1 << 16 in 16.16 fixed point, as the standard has it; some writers use 1.
    public static func matrix(a: Int32, b: Int32, c: Int32, d: Int32, tx: Int32 = 0, ty: Int32 = 0, unit: Int32 = 1 << 16) -> [UInt8] {
        i32(a &* unit) + i32(b &* unit) + i32(0)
            + i32(c &* unit) + i32(d &* unit) + i32(0)
            + i32(tx << 16) + i32(ty << 16) + i32(0x4000_0000)
    }
}

/// Files built to attack the readers.
public enum HostileMovies {
    /// An ftyp, then a moov of an mvhd and `count` empty boxes of `type` (8 bytes each; `trak` by default): walked
    /// one box header per read, it costs a request per box (200,000 empty traks made `thumbs --index video` send
    /// thousands of 8-byte requests).
    public static func manyEmptyTracks(count: Int, type: String = "trak") -> [UInt8] {
        let mvhd = BoxBuilder.fullBox("mvhd", BoxBuilder.zeros(8) + BoxBuilder.u32(1000) + BoxBuilder.zeros(84))  // timescale 1000
        var payload = mvhd
        payload.reserveCapacity(mvhd.count + count * 8)
        let empty = BoxBuilder.box(type)
        for _ in 0..<count { payload += empty }
        return BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0)) + BoxBuilder.box("moov", payload)
    }
}
