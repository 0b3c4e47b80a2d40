import Crypto
import Foundation
import HTTPTypes

/// The strong entity tag of an answer: a digest of what the answer is made from, so a replica that never saw the
/// request gives the same tag, and a new version of the origin's file gives a new one.
///
/// With a validator of the movie's bytes (the origin's ETag or Last-Modified; a local file's size, time and inode):
/// the route, the canonical parameters, the input's identity and that validator; the answer can then be known
/// unchanged without a read when the service has the index of that version cached. Without one: the answer's own
/// bytes.
struct EntityTag: Equatable, CustomStringConvertible {
    /// The tag, quoted: `"3f2a..."`.
    let value: String

    /// The tag of an answer to `route` with `parameters` for `identity` at `validator`; nil without a validator.
    init?(route: String, parameters: String, identity: String, validator: String?) {
        guard let validator else { return nil }
        let text = [route, parameters, identity, validator].joined(separator: "\n")
        value = Self.quoted(SHA256.hash(data: Array(text.utf8)))
    }

    /// The tag of `bytes` themselves.
    init(bytes: [UInt8]) {
        value = Self.quoted(SHA256.hash(data: bytes))
    }

    var description: String { value }

    /// `ETag` with this tag, and `Cache-Control` and `Vary` as `policy` says, for `maxAge` seconds.
    func headers(maxAge: Int, policy: CachePolicy = .shared) -> HTTPFields {
        var fields = policy.headers(maxAge: maxAge)
        fields[.eTag] = value
        return fields
    }

    /// Whether an `If-None-Match` field value names this tag (weak comparison, as RFC 9110 13.1.2 asks; `*` matches).
    func isMatched(byIfNoneMatch field: String) -> Bool {
        for item in field.split(separator: ",") {
            var tag = Substring(item.trimmingCharacters(in: .whitespaces))
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == value[...] { return true }
        }
        return false
    }

    /// The first 16 bytes of a SHA-256 digest in hex, quoted.
    private static func quoted(_ digest: SHA256.Digest) -> String {
        "\"" + Hex.string(digest.prefix(16)) + "\""
    }
}
