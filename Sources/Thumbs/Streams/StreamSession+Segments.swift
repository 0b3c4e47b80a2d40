#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteSources
import MP4Box
import StreamManifests
import TransportStream

/// How a stream's segments are read: as fragmented movies (their init segments read once) or as MPEG transport
/// streams, the last few readings kept for later pictures.
extension StreamSession {
    /// The bytes of an init segment, read once.
    /// - Throws: `ThumbnailError` `limitExceeded` past `maximumInitializationBytes`, or the input's errors.
    func initialization(_ resource: StreamResource) async throws -> [UInt8] {
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

    /// How `segment` is read (the last few kept, so a second picture continues from the first's reads): a Matroska
    /// file's span as its Clusters; an HLS segment without an init segment, or with one of TS packets, as an MPEG
    /// transport stream; the rest as a movie.
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
        if describedBy == .transportStream, let file = transportFile {
            let reading = SegmentReading.transportFile(file)
            keep(reading, of: segment)
            return reading
        }
        if let matroska = matroskaFiles[segment.resource.url], let byteRange = segment.resource.byteRange,
           let track = matroska.index.file.pictureTrack {
            // A codec without a decoder here is named before any frame is read.
            do { _ = try track.sampleEntry() } catch { throw error.located(input: input.name) }
            let reading = SegmentReading.matroska(MatroskaSegment(
                source: matroska.source, byteRange: byteRange, startTime: segment.mediaStart ?? segment.timeRange.lowerBound,
                index: matroska.index, track: track, name: segment.resource.url, held: matroska.held, searches: matroska.index.file.cuePoints.isEmpty,
                workLimits: workLimits))
            keep(reading, of: segment)
            return reading
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
        keep(reading, of: segment)
        return reading
    }

    /// Keeps `reading` for later pictures of `segment`, the last few.
    private func keep(_ reading: SegmentReading, of segment: StreamSegment) {
        segmentReadings.append((segment.resource, reading))
        if segmentReadings.count > Self.keptSegmentReadings { segmentReadings.removeFirst() }
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
    static func holdsItsOwnInitialization(_ segment: StreamSegment) -> Bool {
        segment.resource.byteRange == nil && segment.initialization?.url == segment.resource.url
    }

    /// The movie session of `segment`, read from `resource`: its init segment followed by its bytes, as one
    /// fragmented movie, or its whole resource when that holds its own index. The locator of a segment reads its
    /// `head` alone: a segment's moof comes first.
    func movie(of segment: StreamSegment, in resource: CountingByteSource, initialization: [UInt8],
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
