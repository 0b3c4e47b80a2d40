/// A four-character code naming a box or a sample entry (ISO/IEC 14496-12, 4.2).
public struct FourCC: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as a big-endian 32-bit value.
    public let rawValue: UInt32

    /// Makes a code from its big-endian 32-bit value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Makes a code from four ASCII characters; a shorter literal is padded with spaces, a longer one cut to four.
    public init(stringLiteral value: String) {
        var bytes = Array(value.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        self.rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four characters, with bytes outside printable ASCII shown as `\xNN`.
    public var description: String {
        var text = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
            if byte >= 0x20 && byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }

    /// The code in single quotes, escaped as `description` is: how messages show a code that may be garbage.
    public var quoted: String { "'" + description + "'" }
}
