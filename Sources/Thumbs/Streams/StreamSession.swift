#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteSources
import Matroska
import MP4Box
import StreamManifests
import TransportStream

/// One HLS or DASH stream, or one Matroska or WebM file, being read: its playlist or manifest (or the file's index,
/// whose cue points make its segments), the media playlists and init segments read for it, and the reading of each
/// segment a picture was taken from: a `MovieSession` of a fragmented MP4 segment, a `TransportSegment` of an MPEG-TS
/// one, a `MatroskaSegment` of a span of Clusters (the last few kept, so a second picture of the same segment costs no
/// read).
///
/// Everything is read through the stream's `MovieInput`: the playlist through `open(known:)`, what it names through
/// `input(at:)`, so headers, credentials and a service's allowed origins hold for every segment.
public actor StreamSession {
    /// The playlist or manifest.
    public nonisolated let input: any MovieInput
    /// Caps on what the playlists may make the reader hold.
    public nonisolated let limits: ManifestLimits
    /// Largest init segment read, in bytes (they are a few hundred bytes to a few KiB).
    public static let maximumInitializationBytes = 4 << 20
    /// Segment readings kept for later pictures.
    static let keptSegmentReadings = 4

    private var presentation: StreamPresentation?
    private var mediaPlaylists: [String: StreamPresentation] = [:]
    var initializations: [StreamResource: [UInt8]] = [:]
    var segmentReadings: [(key: StreamResource, reading: SegmentReading)] = []
    /// The head of each MPEG-TS resource whose keyframes an I-frame playlist names by byte range: its program tables,
    /// read once for all its keyframes.
    var programTables: [String: Task<[UInt8]?, any Error>] = [:]
    /// Ranges of resources read ahead together (`prefetch(_:)`), by URL, until a reading takes them.
    var prefetched: [String: [(range: Range<UInt64>, bytes: [UInt8])]] = [:]

    /// How a segment is read: as a fragmented movie, as an MPEG transport stream, as Matroska Clusters.
    package enum SegmentReading: Sendable {
        case movie(SegmentMovie)
        case transport(TransportSegment)
        case matroska(MatroskaSegment)
        case transportFile(TransportFileSegment)

        /// Whether the segment is read forward from its start, its keyframes past the first found only by reading up
        /// to them (an MPEG-TS segment, a span of Matroska Clusters, a bare TS file).
        package var readsForward: Bool {
            if case .movie = self { false } else { true }
        }
    }

    /// What describes the stream: a playlist or manifest, or a Matroska file's own index.
    public enum Description: Sendable, Equatable {
        /// An HLS playlist or a DASH manifest.
        case manifest
        /// A Matroska or WebM file: its cue points are the segments of its picture track.
        case matroska
        /// A bare MPEG transport stream file (`.ts`, `.m2ts`): one segment, searched for its times.
        case transportStream
    }

    /// What describes the stream.
    public nonisolated let describedBy: Description
    /// A Matroska file being read: its index, the bytes read with it, and its source.
    struct MatroskaFileReading {
        var index: MatroskaIndex
        var held: HeldBytes
        let source: CountingByteSource
    }

    /// The Matroska files read, by URL: the file the session describes (under the input's name), the WebM files of
    /// a DASH manifest's representations.
    var matroskaFiles: [String: MatroskaFileReading] = [:]
    /// The Matroska file the session describes, once read.
    var matroska: MatroskaFileReading? { matroskaFiles[input.name] }
    /// A Matroska file's index kept from before (`MovieIndexStore`), used in place of locating it.
    let keptMatroska: MovieIndexEntry?
    /// The bare transport stream file the session describes, once its ends are read.
    var transportFile: TransportFileSegment?

    /// A segment read as a movie.
    package struct SegmentMovie: Sendable {
        /// The session that reads it.
        package var session: MovieSession
        /// Whether the session reads the segment's whole resource as a movie of its own (a DASH SegmentBase file,
        /// a representation without segments): its timeline is the track's own, where the segment's `mediaStart`
        /// is. Otherwise it reads an init segment followed by the segment, and the segment's first picture is where
        /// the segment starts.
        package var isWholeResource: Bool
    }

    /// The wall-clock time now, since the Unix epoch: where a live DASH stream without a SegmentTimeline is.
    public nonisolated let wallClock: @Sendable () -> Duration
    /// The bounds on concurrent fetches and decodes the segments' pictures wait within (a `ThumbnailService`'s); nil:
    /// none beyond each picture's own.
    public nonisolated let workLimits: ThumbnailWorkLimits?

    /// A session for the stream whose playlist or manifest `input` reads; `wallClock` tells the time now (default:
    /// the system's); the segments' pictures wait within `workLimits`. For a Matroska file, `kept` is its index
    /// kept from before (read at that version, `MovieInput.open(known:)`); a movie's entry is not used.
    public init(input: any MovieInput, description: Description = .manifest, limits: ManifestLimits = ManifestLimits(),
                wallClock: @escaping @Sendable () -> Duration = StreamSession.systemWallClock,
                workLimits: ThumbnailWorkLimits? = nil, kept: MovieIndexEntry? = nil) {
        self.input = input
        self.describedBy = description
        keptMatroska = description == .matroska && kept?.matroska != nil ? kept : nil
        self.limits = limits
        self.wallClock = wallClock
        self.workLimits = workLimits
    }

    /// The system's wall-clock time since the Unix epoch, to the microsecond.
    @Sendable public static func systemWallClock() -> Duration {
        .microseconds(Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
    }

    /// The playlist or manifest (or the Matroska file's index, or what a transport stream file's ends say), read on
    /// first use.
    /// - Throws: `ManifestError`; for a Matroska file `MatroskaError` (`notMatroska` when it is none) and
    ///   `ThumbnailError` `noVideo`; for a transport stream file `TransportStreamError` (`notTransportStream` when it
    ///   is none); or the input's errors.
    public func loadPresentation() async throws -> StreamPresentation {
        if let presentation { return presentation }
        if describedBy == .transportStream {
            let read = try await loadTransportFile()
            presentation = read
            return read
        }
        if describedBy == .matroska {
            let source = CountingByteSource(try input.open(known: keptMatroska?.known))
            let (index, held): (MatroskaIndex, HeldBytes)
            if let keptMatroska, let kept = keptMatroska.matroska {
                (index, held) = (kept, keptMatroska.indexBytes)
            } else {
                let located = try await source.run(MatroskaLocator(knownLength: await source.knownLength))
                (index, held) = (MatroskaIndex(located: located), located.heldBytes)
            }
            matroskaFiles[input.name] = MatroskaFileReading(index: index, held: held, source: source)
            let read = try index.presentation(url: input.name)
            presentation = read
            return read
        }
        let read = try StreamManifest.read(try await text(of: input), url: input.referenceBase, limits: limits)
        presentation = read
        return read
    }

    /// The whole text `input` reads, up to `limits.maximumTextBytes`.
    private func text(of input: any MovieInput) async throws -> String {
        let source = CountingByteSource(try input.open(known: nil))
        let bytes = try await source.read(0 ..< UInt64(limits.maximumTextBytes) + 1)
        guard bytes.count <= limits.maximumTextBytes else {
            throw ManifestError(.limitExceeded, url: input.name, "the text is longer than \(limits.maximumTextBytes) bytes")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `rendition` with its segments: as it is, read from the media playlist it names (kept for later calls), or, for a
    /// DASH representation of one WebM or Matroska file, its Cues' spans (`withMatroskaSpans(_:)`).
    /// - Throws: `ManifestError` (`empty` when the media playlist has no rendition), `MatroskaError`, or the input's
    ///   errors.
    public func withSegments(_ rendition: StreamRendition) async throws -> StreamRendition {
        if let spans = try await withMatroskaSpans(rendition) { return spans }
        guard case .mediaPlaylist(let url) = rendition.content else { return rendition }
        let media: StreamPresentation
        if let kept = mediaPlaylists[url] {
            media = kept
        } else {
            media = try StreamManifest.read(try await text(of: try input.input(at: url)), url: url, limits: limits)
            mediaPlaylists[url] = media
        }
        guard let read = media.periods.first?.renditions.first else {
            throw ManifestError(.empty, url: url, "the media playlist has no segments")
        }
        var complete = rendition
        complete.content = read.content
        complete.isEncrypted = rendition.isEncrypted || read.isEncrypted
        complete.isIFrameOnly = rendition.isIFrameOnly || read.isIFrameOnly
        return complete
    }

    /// Of `segments` without an end (a live DASH template without a timeline), where the newest whole one ends: the
    /// start of the one playing at `wallClock`'s time since `presentation`'s `availabilityStartTime`, which is still
    /// being made. Nil for segments with an end, or without an availability start.
    public nonisolated func liveEdge(of segments: StreamSegments, in presentation: StreamPresentation) -> Duration? {
        segments.liveEdge(availabilityStart: presentation.availabilityStartTime, now: wallClock())
    }

    /// Whether the media playlist at `url` (read by `withSegments(_:)`) is live.
    public func isLive(mediaPlaylist url: String) -> Bool {
        mediaPlaylists[url]?.isLive ?? false
    }
}
