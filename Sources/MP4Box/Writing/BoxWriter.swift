/// Writes boxes: big-endian fields, and boxes whose size is filled in when their body is done.
struct BoxWriter {
    /// The bytes written.
    private(set) var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)] }

    mutating func uint32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                  UInt8(truncatingIfNeeded: value)]
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func uint64(_ value: UInt64) {
        uint32(UInt32(truncatingIfNeeded: value >> 32))
        uint32(UInt32(truncatingIfNeeded: value))
    }

    mutating func fourCC(_ code: FourCC) { uint32(code.rawValue) }

    mutating func append<C: Collection>(_ data: C) where C.Element == UInt8 { bytes += data }

    mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

    /// A box of `type` whose body `body` writes; its 32-bit size is set when the body is done.
    mutating func box(_ type: FourCC, _ body: (inout BoxWriter) -> Void) {
        let start = bytes.count
        uint32(0)
        fourCC(type)
        body(&self)
        let size = UInt32(truncatingIfNeeded: bytes.count - start)
        bytes[start] = UInt8(size >> 24)
        bytes[start + 1] = UInt8(truncatingIfNeeded: size >> 16)
        bytes[start + 2] = UInt8(truncatingIfNeeded: size >> 8)
        bytes[start + 3] = UInt8(truncatingIfNeeded: size)
    }

    /// A full box: `version` and 24 bits of `flags` before the body.
    mutating func fullBox(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout BoxWriter) -> Void) {
        box(type) { writer in
            writer.uint32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&writer)
        }
    }
}
