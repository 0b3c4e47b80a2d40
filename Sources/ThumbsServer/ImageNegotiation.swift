import Foundation

/// The picture format of `/thumbnail` (no extension, no `format=`): chosen from the request's `Accept` (RFC 9110,
/// 12.5.1) in the service's order, AVIF, then WebP, then JPEG: the first whose type `Accept` names with a weight above
/// 0 (`q=0` refuses it; a weight written with spaces, `q = 0`, is read as one). `image/*` and `*/*` do not name AVIF or
/// WebP (a browser that shows them names them), so they, no `Accept` at all, or one that refuses both get JPEG, or PNG
/// for `lossless=1` (JPEG has no lossless form).
///
/// The answer then varies by `Accept` (`Vary: Accept`), and by the rule above only through three classes of it: the
/// service's own cache keys on the format chosen, and `deploy/nginx.conf` computes the same class from `Accept` (a
/// regular expression per type, the same `q=0` rule) for its cache key.
enum ImageNegotiation {
    /// The formats offered, in the service's order; the last is the fallback.
    static let offered = ["avif", "webp", "jpg"]

    /// The format for a request that accepts `accept` (nil: no `Accept` field), `lossless` when the picture is asked
    /// for without loss.
    static func format(accepting accept: String?, lossless: Bool = false) -> String {
        var named: [String: Double] = [:]  // the highest weight each media range is given
        for range in (accept ?? "").split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0] == "q" else { continue }
                weight = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0
            }
            named[type] = max(named[type] ?? 0, weight)
        }
        if (named["image/avif"] ?? 0) > 0 { return "avif" }
        if (named["image/webp"] ?? 0) > 0 { return "webp" }
        return lossless ? "png" : "jpg"
    }
}
