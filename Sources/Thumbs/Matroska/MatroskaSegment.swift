import ByteSources
import Matroska
import MP4Box

/// The span of a Matroska file between two cue points' Clusters, read forward from the first Cluster's start only as
/// far as a picture needs, its frames read as they come (`MatroskaClusterReader`), as a stream's segment is.
///
/// The first read is a guess of the keyframe's size from the span's (the distance to the next cue point); once a
/// block's header is read, the next read is exactly the rest of that block, so a keyframe costs one read when the
/// guess holds and two when it does not. Frames past the keyframe (an exact time) are read on in reads that grow by
/// half. A later picture of the same span goes on from there; reads take turns.
package actor MatroskaSegment {
    /// The file, counted.
    let source: CountingByteSource
    /// The span's bytes: from its first Cluster's start to the next cue point's Cluster (or the file's end).
    let byteRange: Range<UInt64>
    /// The file's index, and the track read.
    let file: MatroskaFile
    let track: MatroskaTrack
    /// The file's URL or path, for messages.
    let name: String
    /// The bytes of the first read.
    let firstReadBytes: UInt64
    /// Bounds shared with other work that the movie's decodes wait within; nil: none.
    let workLimits: ThumbnailWorkLimits?

    /// The fewest bytes a guess asks for.
    static let minimumReadBytes: UInt64 = 16 << 10

    private var reader: MatroskaClusterReader
    /// The next offset to read.
    private var readEnd: UInt64
    private let turns = AsyncLimiter(limit: 1)

    /// A span read from `source`, starting with the bytes of it that `held` has (read with the index: no read for
    /// them).
    init(source: CountingByteSource, byteRange: Range<UInt64>, file: MatroskaFile, track: MatroskaTrack, name: String,
         held: HeldBytes, workLimits: ThumbnailWorkLimits?) throws {
        self.source = source
        self.byteRange = byteRange
        self.file = file
        self.track = track
        self.name = name
        self.workLimits = workLimits
        firstReadBytes = Self.firstReadBytes(spanBytes: UInt64(byteRange.count))
        reader = MatroskaClusterReader(track: track, timestampScale: file.timestampScale, start: byteRange.lowerBound)
        readEnd = byteRange.lowerBound
        let kept = held.prefix(of: byteRange)
        if !kept.isEmpty {
            do { try reader.append(kept[...]) } catch { throw error.located(input: name) }
            readEnd += UInt64(kept.count)
        }
    }

    /// The first read's size for a span of `spanBytes`: a sixth of it (a keyframe is a large share of the frames up
    /// to the next one), at least `minimumReadBytes`, at most the span.
    static func firstReadBytes(spanBytes: UInt64) -> UInt64 {
        min(spanBytes, max(minimumReadBytes, spanBytes / 6))
    }

    /// The span's frames as far as a picture `through` after its first keyframe needs them (nil: that keyframe
    /// alone), as a movie of the frames from the first keyframe on, with where that keyframe is on the movie's
    /// timeline.
    /// - Throws: `ThumbnailError` `noSamples` (no keyframe in the span), `MatroskaError` (located at the file, also for
    ///   a codec without a decoder here), `MP4Error` for what the movie cannot be written from, or the source's errors.
    func movie(through offset: Duration?) async throws -> (session: MovieSession, firstPresentation: Int64) {
        let units = offset.map { Self.units($0, scale: file.timestampScale) }
        let reader = try await turns.run { try await self.read(until: units) }
        let frames = reader.framesFromKeyframe
        guard !frames.isEmpty else {
            throw ThumbnailError(.noSamples, "no keyframe of track \(track.number) in bytes \(byteRange.lowerBound)-\(readEnd) of \(name)",
                                 input: name)
        }
        let frameDuration = track.defaultDuration.map { file.movieTicks(Int64(clamping: $0 / max(1, file.timestampScale))) }
        let coded: CodedVideoTrack
        do {
            coded = try file.codedTrack(frames, of: track, lastFrameDuration: frameDuration)
        } catch {
            throw error.located(input: name)
        }
        let bytes = try VideoMovieWriter.movie(of: coded)
        let session = MovieSession(source: DemuxedMovieSource(movie: MemoryByteSource(bytes), segment: source, name: name),
                                   workLimits: workLimits)
        // The keyframe is the first sample; the writer puts the first decoding time at 0.
        return (session, coded.samples[0].presentationTime &- coded.samples[0].decodeTime)
    }

    /// Reads until the first keyframe's block is whole and, with `units`, until enough frames past the keyframe's
    /// time plus `units` are read that every frame shown by then is decoded (a few more than the deepest reordering).
    private func read(until units: Int64?) async throws -> MatroskaClusterReader {
        while !isEnough(units), !reader.isFinished, readEnd < byteRange.upperBound {
            let start = byteRange.lowerBound
            let size: UInt64
            if let needed = reader.neededEnd, needed > readEnd {
                size = needed - readEnd  // the rest of the block whose header was read
            } else if readEnd == start {
                size = firstReadBytes
            } else {
                size = max(firstReadBytes, (readEnd - start) / 2)
            }
            let end = min(byteRange.upperBound, readEnd + size)
            let bytes = try await source.read(readEnd ..< end)
            do {
                try reader.append(bytes[...])
            } catch {
                throw error.located(input: name)
            }
            readEnd += UInt64(bytes.count)
            if readEnd < end || readEnd >= byteRange.upperBound { reader.finish() }
        }
        return reader
    }

    /// Frames read past the time wanted before a picture there is surely decodable: more than any B-pyramid
    /// reorders.
    static let framesPastTarget = 4

    private func isEnough(_ units: Int64?) -> Bool {
        let frames = reader.framesFromKeyframe
        guard let keyframe = frames.first else { return false }
        guard let units else { return true }
        let target = keyframe.timestamp &+ units
        return frames.count(where: { $0.timestamp > target }) >= Self.framesPastTarget
    }

    /// `duration` in timestamp units of `scale` nanoseconds, saturating.
    static func units(_ duration: Duration, scale: UInt64) -> Int64 {
        let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        let value = (nanoseconds / Double(max(1, scale))).rounded(.down)
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int64(value)
    }
}
