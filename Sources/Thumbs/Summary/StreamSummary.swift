import ByteSources
import StreamManifests

/// What an HLS or DASH stream holds, as its playlists say, in the stable JSON shape of `thumbs info --json` for a
/// stream, and its text form: periods, renditions (with the segments their media playlists list), and what reading
/// them cost.
public struct StreamSummary: Encodable, Sendable {
    /// One rendition: an HLS variant, I-frame stream or media, a DASH Representation.
    public struct RenditionSummary: Encodable, Sendable {
        public var id: String?
        public var kind: String
        public var bandwidth: Int64?
        public var width: Int?
        public var height: Int?
        public var codecs: String?
        public var frameRate: String?
        public var encrypted: Bool
        public var iFrameOnly: Bool
        /// The HLS media playlist that lists its segments.
        public var playlist: String?
        /// How its segments are stored: `mpeg-ts` (HLS segments without an init segment), `matroska` (a Matroska or
        /// WebM file's cue spans, on its own or a DASH representation's), else `mp4` (fragmented, or a DASH
        /// SegmentBase movie).
        public var segmentFormat: String?
        /// How many segments; nil for a live template without an end.
        public var segmentCount: Int?
        /// Where its first segment starts and its last ends, in seconds on the stream's timeline.
        public var start: Double?
        public var end: Double?
        /// The first segment's resource, and its init segment.
        public var firstSegment: String?
        public var initialization: String?
        /// The wall-clock time of the first segment (`EXT-X-PROGRAM-DATE-TIME`).
        public var programDateTime: String?
    }

    /// One period (an HLS stream has one).
    public struct PeriodSummary: Encodable, Sendable {
        public var id: String?
        public var start: Double
        public var duration: Double?
        public var renditions: [RenditionSummary]
    }

    /// `hls` or `dash`.
    public var format: String
    public var url: String?
    /// Whether segments are still being added (a playlist without `EXT-X-ENDLIST`, `type="dynamic"`).
    public var live: Bool
    /// Seconds: the manifest's, else (of a stream that has ended) where its renditions' last segments end.
    public var duration: Double?
    public var availabilityStartTime: String?
    public var periods: [PeriodSummary]
    /// The playlists read: the master (or manifest) and each media playlist.
    public var bytesRead: UInt64
    public var reads: Int

    /// The summary of `session`'s stream: its playlist or manifest, and every media playlist it names (one read each).
    /// - Throws: `ManifestError`, or the input's errors.
    public static func read(_ session: StreamSession) async throws -> StreamSummary {
        let meter = FetchMeter()
        return try await meter.measure {
            let presentation = try await session.loadPresentation()
            var periods: [PeriodSummary] = []
            var live = presentation.isLive
            for period in presentation.periods {
                var renditions: [RenditionSummary] = []
                for listed in period.renditions {
                    let rendition = try await session.withSegments(listed)
                    var playlist: String?
                    if case .mediaPlaylist(let url) = listed.content {
                        playlist = url
                        if await session.isLive(mediaPlaylist: url) { live = true }
                    }
                    renditions.append(summarise(rendition, playlist: playlist, format: presentation.format))
                }
                periods.append(PeriodSummary(id: period.id, start: period.start.seconds, duration: period.duration?.seconds,
                                             renditions: renditions))
            }
            let fetched = meter.statistics
            // An HLS master says no duration: its media playlists do, when they have ended.
            let ends = periods.flatMap(\.renditions).compactMap(\.end)
            let duration = presentation.duration?.seconds ?? (live ? nil : ends.max())
            return StreamSummary(format: presentation.format.rawValue, url: presentation.url, live: live,
                                 duration: duration,
                                 availabilityStartTime: presentation.availabilityStartTime?.text, periods: periods,
                                 bytesRead: fetched.bytes, reads: fetched.requests)
        }
    }

    static func summarise(_ rendition: StreamRendition, playlist: String?,
                          format: StreamPresentation.Format) -> RenditionSummary {
        let segments = rendition.segments
        let first = segments?.first
        var summary = RenditionSummary(
            id: rendition.id, kind: rendition.kind.rawValue, bandwidth: rendition.bandwidth, width: rendition.width,
            height: rendition.height, codecs: rendition.codecs, frameRate: rendition.frameRate,
            encrypted: rendition.isEncrypted, iFrameOnly: rendition.isIFrameOnly, playlist: playlist)
        guard let segments, let first else { return summary }
        summary.segmentFormat = switch format {
        case .matroska: "matroska"
        case .transportStream: "mpeg-ts"
        case .dash where rendition.isMatroska: "matroska"
        case .hls where first.initialization == nil: "mpeg-ts"
        default: "mp4"
        }
        summary.segmentCount = segments.count
        summary.start = first.timeRange.lowerBound.seconds
        summary.end = segments.timeRange?.upperBound.seconds
        summary.firstSegment = first.resource.description
        summary.initialization = first.initialization?.description
        summary.programDateTime = first.programDateTime?.text
        return summary
    }

    /// The JSON (`StableJSON`).
    public func json() throws -> [UInt8] { try StableJSON.encode(self) }

    /// A few lines for people.
    public var text: String {
        var lines: [String] = []
        let kind = live ? "live" : "on demand"
        let length = duration.map { ", \(Self.formatSeconds($0))" } ?? ""
        lines.append("stream: \(format.uppercased()), \(kind)\(length), \(periods.count) period\(periods.count == 1 ? "" : "s")")
        lines.append("read: \(bytesRead) bytes in \(reads) reads")
        for (index, period) in periods.enumerated() {
            if periods.count > 1 {
                lines.append("period \(period.id ?? String(index + 1)) from \(Self.formatSeconds(period.start))"
                             + (period.duration.map { ", \(Self.formatSeconds($0))" } ?? ""))
            }
            for rendition in period.renditions {
                var line = "rendition \(rendition.id.map { "\($0) " } ?? "")\(rendition.iFrameOnly ? "I-frames" : rendition.kind)"
                if let width = rendition.width, let height = rendition.height { line += " \(width)x\(height)" }
                if let codecs = rendition.codecs { line += " \(codecs)" }
                if let bandwidth = rendition.bandwidth { line += ", \(bandwidth) bit/s" }
                if rendition.encrypted { line += ", encrypted" }
                if let format = rendition.segmentFormat {
                    let count = rendition.segmentCount.map(String.init) ?? "open-ended"
                    line += ", \(count) \(format) segments"
                    if let start = rendition.start {
                        line += " from \(Self.formatSeconds(start))" + (rendition.end.map { " to \(Self.formatSeconds($0))" } ?? "")
                    }
                }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Seconds to the millisecond.
    private static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.magnitude < 1e12 else { return "\(seconds) s" }
        let milliseconds = Int((seconds * 1000).rounded())
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        return "\(sign)\(magnitude / 1000).\(String(1000 + magnitude % 1000).dropFirst()) s"
    }
}
