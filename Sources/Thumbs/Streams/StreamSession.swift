#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteSources
import MP4Box
import StreamManifests
import TransportStream

/// One HLS or DASH stream being read: its playlist or manifest, the media playlists and init segments read for it,
/// and the reading of each segment a picture was taken from: a `MovieSession` of a fragmented MP4 segment, or a
/// `TransportSegment` of an MPEG-TS one (the last few kept, so a second picture of the same segment costs no read).
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
    private var initializations: [StreamResource: [UInt8]] = [:]
    private var segmentReadings: [(key: StreamResource, reading: SegmentReading)] = []
    /// The head of each MPEG-TS resource whose keyframes an I-frame playlist names by byte range: its program tables,
    /// read once for all its keyframes.
    private var programTables: [String: Task<[UInt8]?, any Error>] = [:]
    /// Ranges of resources read ahead together (`prefetch(_:)`), by URL, until a reading takes them.
    private var prefetched: [String: [(range: Range<UInt64>, bytes: [UInt8])]] = [:]

    /// How a segment is read: as a fragmented movie, or as an MPEG transport stream.
    package enum SegmentReading: Sendable {
        case movie(SegmentMovie)
        case transport(TransportSegment)
    }

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
    /// the system's); the segments' pictures wait within `workLimits`.
    public init(input: any MovieInput, limits: ManifestLimits = ManifestLimits(),
                wallClock: @escaping @Sendable () -> Duration = StreamSession.systemWallClock,
                workLimits: ThumbnailWorkLimits? = nil) {
        self.input = input
        self.limits = limits
        self.wallClock = wallClock
        self.workLimits = workLimits
    }

    /// The system's wall-clock time since the Unix epoch, to the microsecond.
    @Sendable public static func systemWallClock() -> Duration {
        .microseconds(Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
    }

    /// The playlist or manifest, read on first use.
    /// - Throws: `ManifestError`, or the input's errors.
    public func loadPresentation() async throws -> StreamPresentation {
        if let presentation { return presentation }
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

    /// `rendition` with its segments: as it is, or read from the media playlist it names (kept for later calls).
    /// - Throws: `ManifestError` (`empty` when the media playlist has no rendition), or the input's errors.
    public func withSegments(_ rendition: StreamRendition) async throws -> StreamRendition {
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

    /// The bytes of an init segment, read once.
    /// - Throws: `ThumbnailError` `limitExceeded` past `maximumInitializationBytes`, or the input's errors.
    private func initialization(_ resource: StreamResource) async throws -> [UInt8] {
        if let kept = initializations[resource] { return kept }
        let source = CountingByteSource(try input.input(at: resource.url).open(known: nil))
        let range = resource.byteRange ?? 0 ..< UInt64(Self.maximumInitializationBytes) + 1
        guard resource.byteRange == nil || range.count <= Self.maximumInitializationBytes else {
            throw ThumbnailError(.limitExceeded, "the init segment \(resource) is larger than \(Self.maximumInitializationBytes) bytes",
                                 input: input.name)
        }
        let bytes = try await source.read(range)
        guard bytes.count <= Self.maximumInitializationBytes else {
            throw ThumbnailError(.limitExceeded, "the init segment \(resource) is larger than \(Self.maximumInitializationBytes) bytes",
                                 input: input.name)
        }
        initializations[resource] = bytes
        return bytes
    }

    /// How `segment` is read (the last few kept, so a second picture continues from the first's reads): an HLS
    /// segment without an init segment, or with one of TS packets, as an MPEG transport stream; the rest as a movie.
    /// `inIFramePlaylist`: the segment is an I-frame playlist's range of one keyframe, whose TS program tables are at
    /// its resource's start. `wantsFirstKeyframe`: the picture wanted is the segment's first keyframe, so the first
    /// read of a fragmented segment reaches past its moof into that keyframe (`SegmentHead`).
    /// - Throws: `ThumbnailError` `noSamples` for a segment the playlist marks as a gap; the input's errors.
    package func reading(of segment: StreamSegment, inIFramePlaylist: Bool = false,
                         wantsFirstKeyframe: Bool = true, bitRate: Int64? = nil) async throws -> SegmentReading {
        if let index = segmentReadings.firstIndex(where: { $0.key == segment.resource }) {
            let kept = segmentReadings.remove(at: index)
            segmentReadings.append(kept)
            return kept.reading
        }
        guard !segment.isGap else {
            throw ThumbnailError(.noSamples, "segment \(segment.number) (\(segment.resource)) is a gap in the playlist",
                                 input: input.name)
        }
        // Counted where the source does not count itself (a file), so a picture's cost includes the segment's reads;
        // what `prefetch(_:)` read of it is taken from memory.
        var resource = CountingByteSource(try input.input(at: segment.resource.url).open(known: nil))
        if let held = takePrefetched(for: segment.resource) {
            resource = CountingByteSource(PrefetchedByteSource(base: resource, held: held))
        }
        let reading: SegmentReading
        var initialization: [UInt8]?
        let isHLS = try await loadPresentation().format == .hls
        // A DASH SegmentBase file's init segment is its own head, which its session reads with its index.
        if let resource = segment.initialization, isHLS || !Self.holdsItsOwnInitialization(segment) {
            initialization = try await self.initialization(resource)
        }
        if isHLS, initialization?.first.map({ $0 == 0x47 }) ?? true {
            var prefix = initialization
            if inIFramePlaylist, prefix == nil, let start = segment.resource.byteRange?.lowerBound, start > 0 {
                prefix = try await tables(of: segment.resource.url, before: start, in: resource)
            }
            let firstRead = TransportSegment.firstReadBytes(segmentBytes: Self.estimatedBytes(of: segment, bitRate: bitRate),
                                                            wholeRange: inIFramePlaylist && wantsFirstKeyframe)
            reading = .transport(try TransportSegment(source: resource, byteRange: segment.resource.byteRange,
                                                      name: segment.resource.description, prefix: prefix ?? [],
                                                      readsTablesFirst: inIFramePlaylist && prefix == nil,
                                                      firstReadBytes: firstRead, workLimits: workLimits))
        } else {
            reading = .movie(movie(of: segment, in: resource, initialization: initialization ?? [],
                                   head: wantsFirstKeyframe ? .firstKeyframe : .moof))
        }
        segmentReadings.append((segment.resource, reading))
        if segmentReadings.count > Self.keptSegmentReadings { segmentReadings.removeFirst() }
        return reading
    }

    /// Reads the byte ranges of `segments` (keyframes an I-frame playlist lists in one resource) together, with the
    /// program tables at an MPEG-TS resource's head when they have not been read: ranges that touch as one, then one
    /// request where the origin answers several ranges (`ByteSource.read(ranges:)`), within the shared fetch bound.
    /// The segments' readings then take their bytes from memory. Segments without a byte range, of another resource
    /// than the first's, or read already are left to their readings.
    package func prefetch(_ segments: [StreamSegment]) async throws {
        guard let url = segments.first?.resource.url else { return }
        let wanted = segments.filter { segment in
            segment.resource.url == url && !segment.isGap && !segmentReadings.contains { $0.key == segment.resource }
        }
        var ranges = wanted.compactMap(\.resource.byteRange).filter { !$0.isEmpty }
        guard !ranges.isEmpty else { return }
        let isTransportStream = wanted.allSatisfy { $0.initialization == nil }
        if isTransportStream, programTables[url] == nil, let first = ranges.map(\.lowerBound).min(), first > 0 {
            ranges.append(0 ..< min(TransportSegment.tableProbeBytes, first))
        }
        // Ranges that touch or overlap are one: an origin answers several ranges at once only when they are apart.
        let merged = SampleRanges.coalesce(ranges, maximumGap: 0)
        let source = CountingByteSource(try input.input(at: url).open(known: nil))
        let asked = merged
        let read = if let fetches = workLimits?.fetches {
            try await fetches.run { try await source.read(ranges: asked) }
        } else {
            try await source.read(ranges: asked)
        }
        for (range, bytes) in zip(merged, read) where UInt64(bytes.count) == range.upperBound - range.lowerBound {
            prefetched[url, default: []].append((range, bytes))
        }
    }

    /// What `prefetch(_:)` read that holds `resource`'s range, and the read that holds its resource's head (the
    /// program tables), if any. A read is dropped once no range of it is left to a reading: the head's once the
    /// program tables have been read, the others once their last keyframe is taken. Nil when none holds the range.
    private func takePrefetched(for resource: StreamResource) -> [(range: Range<UInt64>, bytes: [UInt8])]? {
        guard let range = resource.byteRange, var held = prefetched[resource.url],
              let index = held.firstIndex(where: { $0.range.lowerBound <= range.lowerBound && range.upperBound <= $0.range.upperBound })
        else { return nil }
        let own = held[index]
        let head = held.first { $0.range.lowerBound == 0 }
        // A read holding keyframes after this one stays for them (keyframes are taken in order).
        if own.range.upperBound <= range.upperBound || own.range.lowerBound == 0 && programTables[resource.url] != nil {
            held.remove(at: index)
        }
        if programTables[resource.url] != nil { held.removeAll { $0.range.lowerBound == 0 && $0.range != own.range } }
        prefetched[resource.url] = held.isEmpty ? nil : held
        return [own] + (head.flatMap { $0.range == own.range ? nil : [$0] } ?? [])
    }

    /// The program tables at the head of the MPEG-TS resource `url`, read once (its first
    /// `TransportSegment.tableProbeBytes`, not past `start`); nil when they are not all there (the segment then reads
    /// on until they are).
    private func tables(of url: String, before start: UInt64, in resource: CountingByteSource) async throws -> [UInt8]? {
        // Keyframes of one resource asked for at once share the one read.
        let read = programTables[url] ?? Task {
            let head = try await resource.read(0 ..< min(TransportSegment.tableProbeBytes, start))
            var demuxer = TransportStreamDemuxer()
            try? demuxer.append(head)
            return demuxer.video != nil ? head : nil
        }
        programTables[url] = read
        do {
            guard let head = try await read.value else {
                programTables[url] = nil
                return nil
            }
            return head
        } catch {
            programTables[url] = nil
            throw error
        }
    }

    /// The bytes of `segment`: its byte range's length, else its rendition's `bitRate` (bits per second) times its
    /// duration; nil when neither is known.
    static func estimatedBytes(of segment: StreamSegment, bitRate: Int64?) -> UInt64? {
        if let range = segment.resource.byteRange { return UInt64(range.count) }
        guard let bitRate, bitRate > 0 else { return nil }
        let seconds = (segment.timeRange.upperBound - segment.timeRange.lowerBound).seconds
        let bytes = Double(bitRate) / 8 * seconds
        return bytes.isFinite && bytes > 0 ? UInt64(min(bytes, Double(TransportSegment.maximumSegmentBytes))) : nil
    }

    /// The length of the resource at `url`, where its source tells it without a read (a file; a URL whose length an
    /// earlier answer gave); nil otherwise.
    package func length(of url: String) async -> UInt64? {
        guard let source = try? input.input(at: url).open(known: nil) else { return nil }
        return await source.knownLength
    }

    /// Whether `segment` is a whole resource whose init segment is its own head (a DASH SegmentBase file).
    private static func holdsItsOwnInitialization(_ segment: StreamSegment) -> Bool {
        segment.resource.byteRange == nil && segment.initialization?.url == segment.resource.url
    }

    /// The movie session of `segment`, read from `resource`: its init segment followed by its bytes, as one
    /// fragmented movie, or its whole resource when that holds its own index. The locator of a segment reads its
    /// `head` alone: a segment's moof comes first.
    private func movie(of segment: StreamSegment, in resource: CountingByteSource, initialization: [UInt8],
                       head: SegmentHead) -> SegmentMovie {
        if !Self.holdsItsOwnInitialization(segment), segment.initialization != nil || segment.resource.byteRange != nil {
            // An init segment and a media segment: read as one fragmented movie, the segment's head alone first.
            let source = SegmentByteSource(initialization: initialization, segment: resource,
                                           byteRange: segment.resource.byteRange, name: segment.resource.description)
            // The head of the segment alone (after the init segment, held): its moof, and when the first keyframe
            // is wanted the start of it; the rest of the keyframe is one more read, and the rest of the segment is
            // not read. A segment whose sidx lists several fragments has those read as a time needs them.
            var options = MovieLocator.Options(fragmentReading: .onDemand)
            options.headSize = initialization.count + head.bytes(forSeconds: (segment.timeRange.upperBound - segment.timeRange.lowerBound).seconds)
            options.tailSize = 0
            return SegmentMovie(session: MovieSession(source: source, workLimits: workLimits, locator: MovieLocator(options: options)),
                                isWholeResource: false)
        }
        // A whole movie (a DASH SegmentBase file with its sidx, a representation without segments): read as any
        // movie is, its fragments on demand. Where the manifest says where its index is (SegmentBase's indexRange,
        // which indexes the Representation's media), the first read is up to its end and the file's end is not read.
        var options = MovieLocator.Options(fragmentReading: .onDemand)
        let indexEnd = [segment.indexRange?.upperBound, segment.initialization?.byteRange?.upperBound].compactMap { $0 }.max()
        if segment.indexRange != nil, let indexEnd, indexEnd <= UInt64(Self.maximumInitializationBytes) {
            options.headSize = Int(indexEnd)
            options.tailSize = 0
            options.segmentIndexCoversMedia = true
        }
        return SegmentMovie(session: MovieSession(source: resource, workLimits: workLimits, locator: MovieLocator(options: options)),
                            isWholeResource: true)
    }
}
