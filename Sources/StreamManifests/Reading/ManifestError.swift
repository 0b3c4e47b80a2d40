/// The one error type of the `StreamManifests` layer: what is wrong with which playlist or manifest, and where in it.
///
/// Its description is one sentence that says where, then what:
/// `https://cdn.example/live/index.m3u8, line 7: EXT-X-BYTERANGE without an offset follows no sub-range of the same
/// resource`.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; callers branch on this. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The text is neither an HLS playlist (`#EXTM3U`) nor a DASH manifest (an `MPD` element).
        case notAManifest
        /// The text contradicts its specification (RFC 8216, ISO/IEC 23009-1, XML 1.0) or itself.
        case malformed
        /// Valid text that this reader does not handle (an XML entity declaration, a template identifier it does
        /// not know).
        case unsupported
        /// A size, count or depth passed a `ManifestLimits` cap.
        case limitExceeded
        /// The manifest describes nothing this reader can use (no period, no rendition, no segment).
        case empty
    }

    /// The kind of failure.
    public var code: Code
    /// The URL (or path) of the playlist or manifest, when the reader was given it.
    public var url: String?
    /// Where in the text: `line 7` for a playlist, an element path such as `MPD/Period[2]/AdaptationSet[1]` for a
    /// manifest; empty for the whole text.
    public var location: String
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, url: String? = nil, location: String = "", _ detail: String) {
        self.code = code
        self.url = url
        self.location = location
        self.detail = detail
    }

    /// Where (the URL, the line or element), then what.
    public var description: String {
        let place = [url, location.isEmpty ? nil : location].compactMap { $0 }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
