/// A stretch of a stream in which the renditions stay the same: a DASH Period; the whole of an HLS stream.
public struct StreamPeriod: Sendable, Hashable {
    /// The manifest's name for it (DASH `Period@id`).
    public var id: String?
    /// When it starts on the stream's timeline.
    public var start: Duration
    /// How long it lasts, where known.
    public var duration: Duration?
    /// Its renditions, in the manifest's order.
    public var renditions: [StreamRendition]

    /// A period.
    public init(id: String? = nil, start: Duration = .zero, duration: Duration? = nil, renditions: [StreamRendition]) {
        self.id = id
        self.start = start
        self.duration = duration
        self.renditions = renditions
    }

    /// When it ends, where known.
    public var end: Duration? { duration.map { start + $0 } }

    /// The video rendition to take a picture of at most `width` by `height` pixels from (nil for the largest):
    /// of the renditions not encrypted, with `iFrameOnly` or without as asked, the smallest whose picture
    /// covers the box (fitting it in needs no upscaling), else the largest; of renditions without a stated size,
    /// the one of the highest bit rate. Nil when there is none of the kind.
    public func videoRendition(fitting width: Int?, _ height: Int?, iFrameOnly: Bool = false) -> StreamRendition? {
        let candidates = renditions.filter {
            ($0.kind == .video || $0.kind == .unknown) && !$0.isEncrypted && $0.isIFrameOnly == iFrameOnly
        }
        let video = candidates.contains { $0.kind == .video } ? candidates.filter { $0.kind == .video } : candidates
        let sized = video.filter { $0.area != nil }
        guard !sized.isEmpty else {
            return video.max { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
        }
        // Smallest first; between equal sizes, the lower bit rate.
        let ordered = sized.sorted { ($0.area ?? 0, $0.bandwidth ?? 0) < ($1.area ?? 0, $1.bandwidth ?? 0) }
        if width != nil || height != nil {
            let covering = ordered.first { rendition in
                guard let renditionWidth = rendition.width, let renditionHeight = rendition.height else { return false }
                return width.map { renditionWidth >= $0 } ?? false || height.map { renditionHeight >= $0 } ?? false
            }
            if let covering { return covering }
        }
        // The largest; between equal sizes, the higher bit rate.
        return ordered.last
    }
}
