/// The values of EBML's element types (RFC 8794, section 7), read from an element's data.
enum EBMLValue {
    /// An unsigned integer of 0 to 8 bytes, big-endian.
    static func unsigned(_ data: ArraySlice<UInt8>, path: String, offset: UInt64) throws(MatroskaError) -> UInt64 {
        guard data.count <= 8 else {
            throw MatroskaError(.malformed, path: path, offset: offset, "an unsigned integer of \(data.count) bytes")
        }
        return data.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A float of 0, 4 or 8 bytes.
    static func float(_ data: ArraySlice<UInt8>, path: String, offset: UInt64) throws(MatroskaError) -> Double {
        switch data.count {
        case 0: return 0
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: try unsigned(data, path: path, offset: offset))))
        case 8: return Double(bitPattern: try unsigned(data, path: path, offset: offset))
        default: throw MatroskaError(.malformed, path: path, offset: offset, "a float of \(data.count) bytes")
        }
    }

    /// A string (ASCII or UTF-8), without the zero bytes that may pad it.
    static func string(_ data: ArraySlice<UInt8>) -> String {
        let end = data.firstIndex(of: 0) ?? data.endIndex
        return String(decoding: data[data.startIndex ..< end], as: UTF8.self)
    }
}
