import ByteSources
import Synchronization
import MP4Box
import StreamManifests
import TransportStream

/// An MPEG-TS segment of an HLS stream, read from its first byte only as far as a picture needs (a TS segment has
/// no index: the packets of a picture are found by reading up to them), its video demuxed as it comes.
///
/// The segment is read in bounded ranges, each handed over as it arrives and stopped as soon as the picture's access
/// unit is whole: the first of `firstReadBytes` (sized from what the playlist tells), each next one half of what was
/// read so far (at least the first's size), so what was read grows by half each time and an origin that sends a
/// range whole however early the reader stops (a fast one, an object store billing what it sends) sends at most about
/// 1.5 times what the picture needs. A later picture of the same segment goes on from there; reads take turns, so two
/// pictures asked for at once do not read the same bytes twice.
///
/// An I-frame playlist's segment is the byte range of one keyframe inside a segment, without the program tables
/// before it: those are read first from the resource's start (the first `tableProbeBytes`, then on as far as they
/// need), and the demuxer goes on at the range.
package actor TransportSegment {
    /// The segment's resource, counted.
    let source: CountingByteSource
    /// The segment's bytes in its resource; nil for all of them.
    let byteRange: Range<UInt64>?
    /// The segment's URL, for messages.
    let name: String
    /// The most read of a segment without a byte range (its resource's end comes first in practice).
    static let maximumSegmentBytes: UInt64 = 256 << 20
    /// The first read for the program tables at a resource's start: they are its first packets (two, in practice).
    static let tableProbeBytes: UInt64 = 1024
    /// The fewest bytes a read of the segment asks for.
    static let minimumReadBytes: UInt64 = 64 << 10
    /// The bytes of the segment's first read.
    let firstReadBytes: UInt64
    /// Whether the program tables are read from the resource's start before the range.
    let readsTablesFirst: Bool
    private var tablesRead = false

    private let demuxer: SharedDemuxer
    private let turns = AsyncLimiter(limit: 1)
    private var bytesRead: UInt64 = 0

    /// Bounds shared with other work that the movie's decodes wait within (a service's); nil: none.
    let workLimits: ThumbnailWorkLimits?

    /// A segment read from `source`, after `prefix` (an EXT-X-MAP of TS packets, or its resource's head: the program
    /// tables), or, with `readsTablesFirst`, after the program tables at the start of its resource; its packets lie
    /// as `layout` says. `firstReadBytes` is the first read's size (`firstReadBytes(segmentBytes:wholeRange:)`).
    init(source: CountingByteSource, byteRange: Range<UInt64>?, name: String, prefix: [UInt8] = [],
         readsTablesFirst: Bool = false, layout: TransportPacketLayout = .plain,
         firstReadBytes: UInt64 = TransportSegment.minimumReadBytes,
         limits: TransportStreamLimits = TransportStreamLimits(), workLimits: ThumbnailWorkLimits? = nil) throws {
        self.workLimits = workLimits
        self.firstReadBytes = max(1, firstReadBytes)
        self.source = source
        self.byteRange = byteRange
        self.name = name
        self.readsTablesFirst = readsTablesFirst && (byteRange?.lowerBound ?? 0) > 0
        demuxer = SharedDemuxer(TransportStreamDemuxer(limits: limits, layout: layout))
        do { _ = try demuxer.append(prefix[...], until: { _ in false }) } catch { throw error.located(input: name) }
        // The tables kept; a picture the prefix began (a resource's head) left behind.
        if !prefix.isEmpty { demuxer.restart(at: 0) }
    }

    /// The demuxer once `enough` holds for it or the segment has been read to its end.
    /// - Throws: `TransportStreamError` (located at the segment), or the source's errors.
    func demuxed(until enough: @escaping @Sendable (TransportStreamDemuxer) -> Bool) async throws -> TransportStreamDemuxer {
        try await turns.run { try await self.read(until: enough) }
        return demuxer.current
    }

    private func read(until enough: @escaping @Sendable (TransportStreamDemuxer) -> Bool) async throws {
        let demuxer = demuxer
        if readsTablesFirst, !tablesRead {
            try await readTables()
            tablesRead = true
        }
        while true {
            let current = demuxer.current
            if current.isFinished || enough(current) { return }
            let start = bytesRead
            let limit = byteRange.map { UInt64($0.count) } ?? Self.maximumSegmentBytes
            guard limit > start else {
                try finish()
                return
            }
            // The first read, then half of what was read so far: bounded, and growing by half each time.
            let size = start == 0 ? firstReadBytes : max(firstReadBytes, Self.minimumReadBytes, start / 2)
            let end = min(limit, start + size)
            let base = byteRange?.lowerBound ?? 0
            let count: UInt64
            do {
                count = try await source.read((base + start) ..< (base + end)) { piece in
                    try demuxer.append(piece, until: enough)
                }
            } catch let error as TransportStreamError {
                throw error.located(input: name)
            }
            bytesRead = start + count
            // A read ends before its range only when the reader had enough or the resource ended; at the range's end
            // the segment is whole.
            if !enough(demuxer.current), start + count < end || bytesRead >= limit { try finish() }
        }
    }

    /// The first read's size for a segment of `segmentBytes` (its byte range's length, or its bit rate times its
    /// duration; nil: unknown, and then `minimumReadBytes`): a sixty-fourth of it, within `minimumReadBytes` and the segment. The keyframe that
    /// starts a segment is a part of it whose share nothing in a playlist tells (3 % of a 6 s segment of 8 Mbit/s
    /// with a keyframe every 2 s, the benchmark's; a flat picture's far less), so the first read stays small and the
    /// next ones grow: an origin that sends each range whole sends about 1.5 times what the picture needs, plus
    /// `minimumReadBytes`. With `wholeRange` (an I-frame playlist's keyframe, whose range is the keyframe), the range
    /// whole.
    static func firstReadBytes(segmentBytes: UInt64?, wholeRange: Bool = false) -> UInt64 {
        guard let segmentBytes, segmentBytes > 0 else { return minimumReadBytes }
        if wholeRange { return segmentBytes }
        return min(segmentBytes, max(minimumReadBytes, segmentBytes / 64))
    }

    /// The program tables from the resource's start, up to the range; then the demuxer goes on at the range (its
    /// offsets counted from there, as for any segment).
    private func readTables() async throws {
        guard let start = byteRange?.lowerBound else { return }
        let demuxer = demuxer
        var read: UInt64 = 0
        do {
            // A probe of the first packets, then, where they do not hold the tables, on until they are read.
            for end in [min(Self.tableProbeBytes, start), start] where end > read && demuxer.current.video == nil {
                read += try await source.read(read ..< end) { piece in try demuxer.append(piece, until: { $0.video != nil }) }
            }
        } catch let error as TransportStreamError {
            throw error.located(input: name)
        }
        guard demuxer.current.video != nil else {
            throw ThumbnailError(.noVideo, "no program map naming an H.264, HEVC, MPEG-2 or MPEG-4 Part 2 stream in the \(read) bytes before \(name)",
                                 input: name)
        }
        demuxer.restart(at: 0)
    }

    /// The segment's video as far as a picture `through` 90 kHz ticks after its first picture needs it (nil: its
    /// first keyframe alone), as a movie of the access units from the first keyframe on, with where the segment's
    /// first picture is on the movie's timeline.
    /// - Throws: `ThumbnailError` `noVideo` (no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 stream) or `noSamples` (no keyframe in the segment),
    ///   `TransportStreamError` (also for what the movie cannot be written from), or the source's errors.
    func movie(through offset: Int64?) async throws -> (session: MovieSession, firstPresentation: Int64) {
        let demuxer = try await demuxed { demuxer in
            let units = demuxer.completeAccessUnits
            guard let offset, let first = Self.firstPresentation(of: units) else { return units.contains(where: \.isKeyframe) }
            return units.contains { $0.decodeTime > first &+ offset }
        }
        let units = demuxer.completeAccessUnits
        guard let video = demuxer.video else {
            throw ThumbnailError(.noVideo, "segment \(name) has no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video stream", input: name)
        }
        guard let keyframe = units.firstIndex(where: \.isKeyframe), let first = Self.firstPresentation(of: units) else {
            throw ThumbnailError(.noSamples, "segment \(name) has no keyframe in its \(units.count) pictures", input: name)
        }
        let parameterSets = video.codec.parameterSets(in: units[...keyframe])
        // A field-coded H.264 stream's fields, paired into frames (each field is an access unit of its own in TS).
        let kept = video.codec == .h264 ? FieldPairs.frames(of: units[keyframe...], parameterSets: parameterSets)[...] : units[keyframe...]
        let next = demuxer.accessUnits.dropFirst(units.count).first
        let bytes: [UInt8]
        do {
            bytes = try TransportVideoMovie.bytes(of: kept, codec: video.codec, parameterSets: parameterSets,
                                                  lastSampleDuration: next.flatMap { unit in kept.last.map { unit.decodeTime - $0.decodeTime } })
        } catch {
            // What the writer refuses is the stream's: decoding times that go back, no SPS before the keyframe.
            throw TransportStreamError(error.code == .limitExceeded ? .limitExceeded : .malformed, pid: video.pid,
                                       error.detail).located(input: name)
        }
        let session = MovieSession(source: DemuxedMovieSource(movie: MemoryByteSource(bytes), segment: source, name: name),
                                   workLimits: workLimits)
        return (session, first - units[keyframe].decodeTime)
    }

    /// Where the segment's first picture is: the earliest presentation time of the pictures before its first keyframe
    /// (in decoding order) and the keyframe's own. Pictures after the keyframe that show before it are its leading
    /// pictures, which depend on the segment before (HEVC RASL, open GOPs) and are not shown from here: the segment
    /// starts at the keyframe, where a muxer that cuts at keyframes starts it. Nil before a keyframe is read.
    static func firstPresentation(of units: ArraySlice<TransportAccessUnit>) -> Int64? {
        guard let keyframe = units.firstIndex(where: \.isKeyframe) else { return nil }
        return units[...keyframe].map(\.presentationTime).min()
    }

    private func finish() throws {
        do { try demuxer.finish() } catch { throw error.located(input: name) }
    }
}

/// The demuxer of a segment, fed by the reader a read hands its pieces to as they arrive (a `@Sendable` closure):
/// behind a lock, which that reader and the segment take in turn.
private final class SharedDemuxer: Sendable {
    private let state: Mutex<TransportStreamDemuxer>

    init(_ demuxer: TransportStreamDemuxer) {
        state = Mutex(demuxer)
    }

    /// The demuxer as it is.
    var current: TransportStreamDemuxer { state.withLock { $0 } }

    /// Appends `piece`; true when `enough` holds after it.
    func append(_ piece: ArraySlice<UInt8>, until enough: (TransportStreamDemuxer) -> Bool) throws(TransportStreamError) -> Bool {
        try state.withLock { demuxer throws(TransportStreamError) in
            try demuxer.append(piece)
            return enough(demuxer)
        }
    }

    /// Goes on at `offset` (`TransportStreamDemuxer.restart(at:)`).
    func restart(at offset: UInt64) {
        state.withLock { $0.restart(at: offset) }
    }

    /// Ends the stream.
    func finish() throws(TransportStreamError) {
        try state.withLock { demuxer throws(TransportStreamError) in try demuxer.finish() }
    }
}
