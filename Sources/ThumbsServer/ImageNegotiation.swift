/// The picture format of `/thumbnail` (no extension, no `format=`): chosen from the request's `Accept` (RFC 9110,
/// 12.5.1) among AVIF, WebP and JPEG, the highest quality value first and, of equal ones, in that order. A format
/// counts only where `Accept` names its type (`image/avif`, `image/webp`; JPEG also by `image/*`, `*/*` or no
/// `Accept` at all): a browser that shows AVIF or WebP names it, and `*/*` alone promises no more than JPEG. A type
/// named with `q=0` is refused; when every one is, the answer is JPEG still (as a picture no one asked for, not a 406).
///
/// The answer then varies by `Accept` (`Vary: Accept`), and only these three classes of it matter: the service's own
/// cache keys on the format chosen, and `deploy/nginx.conf` reduces `Accept` to the class in its cache key.
enum ImageNegotiation {
    /// The formats offered, in the order that breaks ties.
    static let offered = ["avif", "webp", "jpg"]

    /// The format for a request that accepts `accept` (nil: no `Accept` field).
    static func format(accepting accept: String?) -> String {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return "jpg" }
        var named: [String: Double] = [:]  // the highest q each media range is given
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0
            }
            named[type] = max(named[type] ?? 0, quality)
        }
        let qualities = [named["image/avif"] ?? 0, named["image/webp"] ?? 0,
                         named["image/jpeg"] ?? named["image/*"] ?? named["*/*"] ?? 0]
        guard let best = qualities.max(), best > 0, let index = qualities.firstIndex(of: best) else { return "jpg" }
        return offered[index]
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
