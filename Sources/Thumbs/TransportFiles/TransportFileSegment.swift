import ByteSources
import MP4Box
import TransportStream

/// A bare transport stream file (`.ts`, `.m2ts`) read as one segment: without an index, the keyframe for a time is
/// found by a search of small probes (`TransportTimeSearch`, from what its ends showed), and the file is read on from
/// that keyframe's packet as a TS segment is (`TransportSegment`, its program tables given first), only as far as the
/// picture needs. The keyframe is the one shown nearest the time for a keyframe alone, the last one shown at or
/// before it for a frame decoded up to the time. The bytes the probes read are not read again; searches and reads
/// take turns, and the readings from each keyframe are kept for later pictures.
package actor TransportFileSegment {
    /// The file, counted.
    let source: CountingByteSource
    /// What the file's ends showed.
    let index: TransportFileIndex
    /// The file's path or URL, for messages.
    let name: String
    /// Bounds shared with other work that the movie's decodes wait within; nil: none.
    let workLimits: ThumbnailWorkLimits?

    private var search: TransportTimeSearch
    /// The bytes the ends and the probes read, by where they start.
    private var held: [(range: Range<UInt64>, bytes: [UInt8])]
    private var readings: [UInt64: TransportSegment] = [:]
    private let turns = AsyncLimiter(limit: 1)

    /// The probes' size: a tenth of a second of the file's bytes (by its length and duration), within 16 and 256 KiB,
    /// so that a probe holds the start of a picture or two.
    static func probeBytes(for index: TransportFileIndex) -> UInt64 {
        guard let end = index.endTime, end > 0 else { return TransportTimeSearch.defaultProbeBytes }
        let perTick = Double(index.length) / Double(end)
        return UInt64(min(Double(256 << 10), max(Double(16 << 10), perTick * 9_000)))
    }

    /// The file `index` describes, read from `source`.
    init(source: CountingByteSource, index: TransportFileIndex, name: String, workLimits: ThumbnailWorkLimits?) {
        self.source = source
        self.index = index
        self.name = name
        self.workLimits = workLimits
        search = index.search(probeBytes: Self.probeBytes(for: index))
        held = [(0 ..< UInt64(index.head.count), index.head)]
        if !index.tail.isEmpty { held.append((index.tailOffset ..< index.tailOffset + UInt64(index.tail.count), index.tail)) }
    }

    /// The file's video as a movie of the access units from the keyframe for a time on: with `through` (a time from
    /// the file's first picture) the last keyframe shown at or before it, read on until the picture there is decoded;
    /// else the keyframe shown nearest `near` alone. With where the file's first picture is on the movie's timeline.
    /// - Throws: `ThumbnailError` (`noVideo`, `noSamples`), `TransportStreamError` (located at the file), or the
    ///   source's errors.
    func movie(near: Duration, through: Duration?) async throws -> (session: MovieSession, firstPresentation: Int64) {
        let target = StreamSeekMap.ticks(through ?? near, timescale: 90_000)
        let goal: TransportTimeSearch.Goal = through == nil ? .nearest : .atOrBefore
        let keyframe = try await turns.run { try await self.searched(for: target, goal: goal) }
        // Without a keyframe found (the probes spent), the file is read from its first packet to its first keyframe.
        let start = keyframe?.offset ?? index.firstPacket
        let reading = try await segment(from: start)
        let keyframeTime = keyframe?.presentationTime ?? 0
        let movie = try await reading.movie(through: through.map { _ in max(0, target - keyframeTime) })
        return (movie.session, movie.firstPresentation - keyframeTime)
    }

    /// Probes until the search settles the keyframe for `target`.
    private func searched(for target: Int64, goal: TransportTimeSearch.Goal) async throws -> TransportTimeSearch.Point? {
        while let probe = search.nextProbe(for: target, goal: goal) {
            let bytes = try await source.read(probe)
            search.receive(bytes, at: probe.lowerBound)
            held.append((probe.lowerBound ..< probe.lowerBound + UInt64(bytes.count), bytes))
            if bytes.count < probe.count { break }
        }
        return search.keyframe(for: target, goal: goal)
    }

    /// The reading of the file from the packet at `start`, kept.
    private func segment(from start: UInt64) async throws -> TransportSegment {
        if let kept = readings[start] { return kept }
        let prefetched = CountingByteSource(PrefetchedByteSource(base: source, held: held))
        let reading = try TransportSegment(source: prefetched, byteRange: start ..< index.length, name: name,
                                           prefix: index.tables, layout: index.layout,
                                           firstReadBytes: Self.probeBytes(for: index), workLimits: workLimits)
        readings[start] = reading
        return reading
    }
}
