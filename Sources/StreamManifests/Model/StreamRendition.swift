/// One encoding of a stream's content: an HLS variant (or I-frame stream), a DASH Representation.
public struct StreamRendition: Sendable, Hashable {
    /// What the rendition carries.
    public enum Kind: String, Sendable, Hashable {
        /// Pictures (perhaps with sound muxed in, as HLS variants often are).
        case video
        /// Sound alone.
        case audio
        /// Subtitles, captions, thumbnails or other text and images.
        case text
        /// The manifest does not say.
        case unknown
    }

    /// Where the rendition's segments are.
    public enum Content: Sendable, Hashable {
        /// In an HLS media playlist still to be read (a master playlist names it).
        case mediaPlaylist(url: String)
        /// Known.
        case segments(StreamSegments)
    }

    /// The manifest's name for it (DASH `Representation@id`; HLS: none).
    public var id: String?
    /// What it carries.
    public var kind: Kind
    /// Its peak bit rate in bits per second, where stated.
    public var bandwidth: Int64?
    /// Its average bit rate in bits per second, where stated (HLS `AVERAGE-BANDWIDTH`).
    public var averageBandwidth: Int64?
    /// Its picture's width and height in pixels, where stated.
    public var width: Int?
    /// Its picture's height in pixels, where stated.
    public var height: Int?
    /// Its codecs as RFC 6381 writes them (`avc1.64001f,mp4a.40.2`), where stated.
    public var codecs: String?
    /// Its frame rate as written (`30`, `30000/1001`, `29.970`), where stated.
    public var frameRate: String?
    /// Whether its segments are encrypted (HLS `EXT-X-KEY` other than `NONE`, DASH `ContentProtection`).
    public var isEncrypted: Bool
    /// Whether each segment is one keyframe (an HLS I-frame playlist or an `EXT-X-I-FRAME-STREAM-INF`, a DASH trick-mode
    /// AdaptationSet).
    public var isIFrameOnly: Bool
    /// Its segments, or the playlist that lists them.
    public var content: Content
    /// The container's media type, where the manifest says it (DASH's `mimeType`: `video/mp4`, `video/webm`).
    public var mimeType: String?

    /// A rendition.
    public init(id: String? = nil, kind: Kind, bandwidth: Int64? = nil, width: Int? = nil, height: Int? = nil,
                codecs: String? = nil, frameRate: String? = nil, isEncrypted: Bool = false, isIFrameOnly: Bool = false,
                content: Content, mimeType: String? = nil) {
        self.id = id
        self.kind = kind
        self.bandwidth = bandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.frameRate = frameRate
        self.isEncrypted = isEncrypted
        self.isIFrameOnly = isIFrameOnly
        self.content = content
        self.mimeType = mimeType
    }

    /// Whether the manifest says the segments are Matroska (`video/webm`, `video/x-matroska` and their audio kin).
    public var isMatroska: Bool {
        guard let subtype = mimeType?.lowercased().split(separator: ";").first?.split(separator: "/").last else { return false }
        return ["webm", "x-matroska", "matroska"].contains(subtype.filter { $0 != " " })
    }

    /// The bit rate a segment's size is best estimated from: the average where stated, else the peak.
    public var typicalBitRate: Int64? { averageBandwidth ?? bandwidth }

    /// Its segments, when known.
    public var segments: StreamSegments? {
        if case .segments(let segments) = content { segments } else { nil }
    }

    /// Its pixel count, when its size is stated.
    var area: Int? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        return width.multipliedReportingOverflow(by: height).overflow ? Int.max : width * height
    }
}
