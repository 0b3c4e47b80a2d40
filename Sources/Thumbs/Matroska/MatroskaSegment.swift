import ByteSources
import Matroska
import MP4Box

/// The span of a Matroska file between two cue points' Clusters (or, in a file without Cues, the whole file), read
/// forward from a Cluster's start only as far as a picture needs, its frames read as they come
/// (`MatroskaClusterReader`), as a stream's segment is.
///
/// The first read is a guess of the keyframe's size from the span's (the distance to the next cue point; in a file
/// without Cues, `minimumReadBytes`); once a block's header is read, the next read is exactly the rest
/// of that block, so a keyframe costs one read when the guess holds and two when it does not. Frames past the
/// keyframe (an exact time) are read on in reads that grow by half. In a file without Cues the Cluster a time needs
/// is found first by `MatroskaClusterSearch` (probes of 16 KiB, interpolated then halved), and the read starts there;
/// the Clusters found are kept for later times. Later pictures go on from reads made before; reads take turns.
package actor MatroskaSegment {
    /// The file, counted.
    let source: CountingByteSource
    /// The span's bytes: from its first Cluster's start to the next cue point's Cluster (or the file's end).
    let byteRange: Range<UInt64>
    /// Where the span starts on the file's timeline, in timestamp units.
    let startTime: Int64
    /// The file's index, and the track read.
    let file: MatroskaFile
    let track: MatroskaTrack
    /// The file's URL or path, for messages.
    let name: String
    /// Bounds shared with other work that the movie's decodes wait within; nil: none.
    let workLimits: ThumbnailWorkLimits?

    /// The fewest bytes a guess asks for.
    static let minimumReadBytes: UInt64 = 16 << 10
    /// Most Clusters a search steps back for one whose first keyframe is at or before the time.
    static let maximumStepsBack = 4

    /// A run of Clusters read forward from one Cluster's start.
    private struct Run {
        /// Its reader, whose `position` is where the next read starts.
        var reader: MatroskaClusterReader
        let firstReadBytes: UInt64
    }

    private var runs: [UInt64: Run] = [:]
    /// The search over the Clusters of a file without Cues; nil for a span a cue point starts.
    private var search: MatroskaClusterSearch?
    /// The bytes read with the index, and those the search's probes read: a run starts with what they hold.
    private var held: HeldBytes
    private let turns = AsyncLimiter(limit: 1)

    /// A span read from `source` that starts at `startTime` (nanoseconds on the file's timeline), starting with
    /// the bytes of it that `held` has (read with the index: no read for them). `searches`: the file has no Cues, and
    /// a time is found by a search over its Clusters, from those `index` knows.
    init(source: CountingByteSource, byteRange: Range<UInt64>, startTime: Duration, index: MatroskaIndex,
         track: MatroskaTrack, name: String, held: HeldBytes, searches: Bool, workLimits: ThumbnailWorkLimits?) {
        self.source = source
        self.byteRange = byteRange
        self.file = index.file
        self.track = track
        self.name = name
        self.held = held
        self.workLimits = workLimits
        self.startTime = Self.units(startTime, scale: file.timestampScale)
        if searches, let first = index.clusters.first(where: { $0.offset == byteRange.lowerBound }) {
            // The Clusters known past the first (the last ones, in the tail) bound the search from above.
            let known = index.clusters.filter { $0.offset > byteRange.lowerBound && $0.offset < byteRange.upperBound }
            search = MatroskaClusterSearch(first: first, end: byteRange.upperBound, endTime: index.file.duration.map { Int64(min($0, 9e18)) },
                                           known: known, probeBytes: Self.probeBytes(first: first, known: known, file: file))
        }
    }

    /// The Clusters a search has found (none for a span a cue point starts).
    var knownClusters: [MatroskaClusterSearch.Point] { search?.points ?? [] }

    /// The bytes of a search's probe: an eighth of a second of the file's bytes (by its Duration and length, else by
    /// the first and last Clusters known), within 16 and 256 KiB: a probe that lands between two Clusters finds the next
    /// in a few.
    static func probeBytes(first: MatroskaClusterSearch.Point, known: [MatroskaClusterSearch.Point], file: MatroskaFile) -> UInt64 {
        var perUnit: Double?
        if let duration = file.duration, duration > 0, let length = file.fileLength, length > first.offset {
            perUnit = Double(length - first.offset) / duration
        } else if let last = known.last, last.time > first.time, last.offset > first.offset {
            perUnit = Double(last.offset - first.offset) / Double(last.time - first.time)
        }
        guard let perUnit else { return MatroskaClusterSearch.defaultProbeBytes }
        let eighthOfASecond = 125_000_000 / Double(max(1, file.timestampScale))
        return UInt64(min(Double(256 << 10), max(Double(MatroskaClusterSearch.defaultProbeBytes), perUnit * eighthOfASecond)))
    }

    /// The first read's size for a span of `spanBytes` (the frames from one cue point's keyframe to the next's): a
    /// twenty-fourth of it, at least `minimumReadBytes`, at most the span. A keyframe's share of its group of pictures
    /// is what the index does not tell: 3.3 % in the benchmark's 1080p H.264 (66 KB of 2 MB), far more in a still
    /// scene. A guess that falls short costs one more read, of exactly the rest (the block's header says its size); one
    /// that is long costs at most a twenty-fourth of the span.
    static func firstReadBytes(spanBytes: UInt64) -> UInt64 {
        min(spanBytes, max(minimumReadBytes, spanBytes / 24))
    }

    /// The span's frames as a movie of the frames from a keyframe on: the span's first keyframe, or in a file
    /// without Cues the first keyframe of the last Cluster that starts at or before `near` (stepping back while that
    /// keyframe is after it; for a keyframe alone, of the Cluster that starts nearest `near`); as far as a picture at
    /// `through` needs them (nil: that keyframe alone). With where the span's start is on the movie's timeline.
    /// - Throws: `ThumbnailError` `noSamples` (no keyframe where one was looked for), `MatroskaError` (located at the
    ///   file, also for a codec without a decoder here), `MP4Error` for what the movie cannot be written from, or the
    ///   source's errors.
    func movie(near: Duration? = nil, through: Duration?) async throws -> (session: MovieSession, firstPresentation: Int64) {
        let target = through.map { Self.units($0, scale: file.timestampScale) }
        let searched = search == nil ? nil : near.map { Self.units($0, scale: file.timestampScale) }
        let start = byteRange.lowerBound
        let reader = try await turns.run { () async throws -> MatroskaClusterReader in
            guard let searched else { return try await self.read(from: start, through: target) }
            return try await self.searchingRead(near: searched, through: target)
        }
        let frames = reader.framesFromKeyframe
        guard let keyframe = frames.first else {
            throw ThumbnailError(.noSamples, "no keyframe of track \(track.number) in bytes \(byteRange.lowerBound)-\(byteRange.upperBound) of \(name)",
                                 input: name)
        }
        let frameDuration = track.frameDuration(timestampScale: file.timestampScale).map(file.movieTicks)
        let coded: CodedVideoTrack
        do {
            coded = try file.codedTrack(frames, of: track, lastFrameDuration: frameDuration)
        } catch let error as MatroskaError {
            throw error.located(input: name)
        }
        let bytes = try VideoMovieWriter.movie(of: coded)
        let session = MovieSession(source: DemuxedMovieSource(movie: MemoryByteSource(bytes), segment: source, name: name),
                                   workLimits: workLimits)
        // The keyframe is the first sample and the writer puts the first decoding time at 0; the span's start is as far
        // before it as the keyframe's timestamp is after the span's.
        let keyframeTime = coded.samples[0].presentationTime &- coded.samples[0].decodeTime
        return (session, keyframeTime &- file.movieTicks(keyframe.timestamp &- startTime))
    }

    /// Reads from the last Cluster found to start at or before `near` (for a keyframe alone, `target` nil: the one that
    /// starts nearest `near`, after it too), stepping back a Cluster at a time (at most `maximumStepsBack`) while its
    /// first keyframe is after `near`.
    private func searchingRead(near: Int64, through target: Int64?) async throws -> MatroskaClusterReader {
        var wanted = near
        var reader: MatroskaClusterReader?
        // A keyframe alone needs no Cluster nearer than a frame's length to the time.
        let closeEnough = target == nil
            ? track.frameDuration(timestampScale: file.timestampScale) ?? Int64(40_000_000 / max(1, file.timestampScale)) : nil
        for step in 0 ... Self.maximumStepsBack {
            try await narrowSearch(to: wanted, closeEnough: step == 0 ? closeEnough : nil)
            guard let search else { break }
            var start = search.start(for: wanted)
            // For a keyframe alone, the Cluster that starts nearest the time, after it as well as before.
            if target == nil, step == 0, let next = search.points.first(where: { $0.time > wanted }),
               next.time - wanted < wanted - start.time,
               MatroskaClusterSearch.clusterStartsWithKeyframe(held.prefix(of: next.offset ..< next.offset + 64), track: track.number) {
                start = next
            }
            let read = try await self.read(from: start.offset, through: target.map { max($0, wanted) })
            reader = read
            guard let keyframe = read.framesFromKeyframe.first, keyframe.timestamp > near, start.time <= near,
                  start.offset > byteRange.lowerBound else { break }
            wanted = start.time &- 1
        }
        guard let reader else { return try await read(from: byteRange.lowerBound, through: target) }
        return reader
    }

    /// Probes until the search knows the Cluster playing at `time`, or (`closeEnough`) one that starts that near it.
    private func narrowSearch(to time: Int64, closeEnough: Int64? = nil) async throws {
        while var search, !(closeEnough.map { near in search.points.contains { abs($0.time &- time) <= near } } ?? false),
              let probe = search.nextProbe(for: time) {
            let bytes = try await source.read(probe)
            search.receive(bytes, at: probe.lowerBound)
            held.insert(bytes, at: probe.lowerBound)
            self.search = search
            if bytes.count < probe.count { break }
        }
    }

    /// Reads the run from `start` until its first keyframe's block is whole and, with `target`, until enough frames
    /// past `target` are read that every frame shown by then is decoded (a few more than the deepest reordering).
    private func read(from start: UInt64, through target: Int64?) async throws -> MatroskaClusterReader {
        var run = runs[start] ?? newRun(from: start)
        defer { runs[start] = run }
        while !Self.isEnough(run.reader, through: target), !run.reader.isFinished, run.reader.position < byteRange.upperBound {
            let read = run.reader.position
            let size: UInt64
            if let needed = run.reader.neededEnd, needed > read {
                size = needed - read  // the rest of the block whose header was read
            } else if read == start {
                size = run.firstReadBytes
            } else {
                size = max(run.firstReadBytes, (read - start) / 2)
            }
            let end = min(byteRange.upperBound, read + size)
            let bytes = try await source.read(read ..< end)
            do {
                try run.reader.append(bytes[...])
            } catch {
                throw error.located(input: name)
            }
            if run.reader.position < end || run.reader.position >= byteRange.upperBound { run.reader.finish() }
        }
        return run.reader
    }

    /// A run from `start`, given the bytes held there (read with the index or by the search's probes).
    private func newRun(from start: UInt64) -> Run {
        let span = search == nil ? UInt64(byteRange.count) : MatroskaClusterSearch.defaultProbeBytes * 4
        let fresh = MatroskaClusterReader(track: track, timestampScale: file.timestampScale, start: start)
        var run = Run(reader: fresh, firstReadBytes: Self.firstReadBytes(spanBytes: min(span, byteRange.upperBound - start)))
        let kept = held.prefix(of: start ..< byteRange.upperBound)
        if !kept.isEmpty, (try? run.reader.append(kept[...])) == nil {
            run.reader = fresh  // what is held does not read: the reads say where
        }
        return run
    }

    /// Frames read past the time wanted before a picture there is surely decodable: more than any B-pyramid
    /// reorders.
    static let framesPastTarget = 4

    private static func isEnough(_ reader: MatroskaClusterReader, through target: Int64?) -> Bool {
        let frames = reader.framesFromKeyframe
        guard !frames.isEmpty else { return false }
        guard let target else { return true }
        return frames.count(where: { $0.timestamp > target }) >= framesPastTarget
    }

    /// `duration` in timestamp units of `scale` nanoseconds, saturating.
    static func units(_ duration: Duration, scale: UInt64) -> Int64 {
        let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        let value = (nanoseconds / Double(max(1, scale))).rounded(.down)
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int64(value)
    }
}
