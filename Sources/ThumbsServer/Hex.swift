/// Lower-case hexadecimal text of bytes, and bytes of such text: for signatures and entity tags.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lower-case hex digits per byte.
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` (hex digits of either case, an even number of them); nil for anything else.
    static func bytes(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
