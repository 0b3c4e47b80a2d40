/// An object in Amazon S3 or an S3-compatible store, written `s3://bucket/key`.
///
/// The key is taken as written, not percent-decoded: `s3://media/a b+c.mp4` is the key `a b+c.mp4`, as the AWS
/// command line reads it. It is percent-encoded once, byte for byte, when it becomes a request's path.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// The bucket.
    public var bucket: String
    /// The object's key.
    public var key: String

    /// An object.
    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// The object an `s3://bucket/key` URL names; nil for another scheme, an empty or malformed bucket name (other
    /// than lower-case letters, digits, dots, hyphens and underscores), or an empty key.
    public init?(_ url: String) {
        guard url.lowercased().hasPrefix(Self.scheme) else { return nil }
        let rest = url.dropFirst(Self.scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let bucket = rest[..<slash]
        let key = rest[rest.index(after: slash)...]
        guard !bucket.isEmpty, !key.isEmpty, bucket.utf8.allSatisfy(Self.isBucketByte) else { return nil }
        self.init(bucket: String(bucket), key: String(key))
    }

    /// `s3://`, the scheme of these URLs.
    public static let scheme = "s3://"

    /// Whether `text` starts with the `s3://` scheme (whatever follows).
    public static func isS3(_ text: String) -> Bool {
        text.lowercased().hasPrefix(scheme)
    }

    /// `s3://bucket/key`.
    public var description: String { Self.scheme + bucket + "/" + key }

    /// The key percent-encoded for a request's path: every byte but the unreserved ones (letters, digits, `-`, `.`,
    /// `_`, `~`) and `/` as `%XX`, as Signature Version 4 expects it.
    public var encodedKey: String {
        Self.percentEncoded(key, keeping: "/")
    }

    static func isBucketByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// `text` with every byte but the unreserved ones and those in `kept` as `%XX` (upper-case hexadecimal).
    static func percentEncoded(_ text: String, keeping kept: String) -> String {
        let keptBytes = Set(kept.utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            let unreserved = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if unreserved || keptBytes.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with its `%XX` escapes decoded (and, with `plusIsSpace`, `+` as a space: how S3 event notifications
    /// write keys); nil when an escape is malformed or the bytes are not UTF-8.
    public static func percentDecoded(_ text: String, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
