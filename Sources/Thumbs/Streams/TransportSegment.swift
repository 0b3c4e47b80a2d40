import ByteSources
import MP4Box
import StreamManifests
import TransportStream

/// An MPEG-TS segment of an HLS stream, read from its first byte only as far as a picture needs (a TS segment has
/// no index: the packets of a picture are found by reading up to them), its video demuxed as it comes.
///
/// Reads grow: `firstReadBytes`, then as much again as has been read, up to the segment's end, so a keyframe of
/// any size costs a few reads and at most twice its bytes past the first read.
package actor TransportSegment {
    /// The segment's resource, counted.
    let source: CountingByteSource
    /// The segment's bytes in its resource; nil for all of them.
    let byteRange: Range<UInt64>?
    /// The segment's URL, for messages.
    let name: String
    /// Bytes of the first read: the head of a segment of a small picture, with its program tables.
    static let firstReadBytes: UInt64 = 64 << 10

    private var demuxer: TransportStreamDemuxer
    private var bytesRead: UInt64 = 0

    /// A segment read from `source`, after `prefix` (an EXT-X-MAP of TS packets: the program tables).
    init(source: CountingByteSource, byteRange: Range<UInt64>?, name: String, prefix: [UInt8] = [],
         limits: TransportStreamLimits = TransportStreamLimits()) throws {
        self.source = source
        self.byteRange = byteRange
        self.name = name
        demuxer = TransportStreamDemuxer(limits: limits)
        do { try demuxer.append(prefix) } catch { throw error.located(input: name) }
    }

    /// The demuxer once `enough` holds for it or the segment has been read to its end.
    /// - Throws: `TransportStreamError` (located at the segment), or the source's errors.
    func demuxed(until enough: (TransportStreamDemuxer) -> Bool) async throws -> TransportStreamDemuxer {
        while !demuxer.isFinished, !enough(demuxer) {
            var end = bytesRead + max(Self.firstReadBytes, bytesRead)
            if let byteRange { end = min(end, UInt64(byteRange.count)) }
            guard end > bytesRead else {
                try finish()
                break
            }
            let base = byteRange?.lowerBound ?? 0
            let start = bytesRead
            let bytes = try await source.read((base + start) ..< (base + end))
            bytesRead = start + UInt64(bytes.count)
            do { try demuxer.append(bytes) } catch { throw error.located(input: name) }
            // A short read is the resource's end; a byte range ends where it says.
            if UInt64(bytes.count) < end - start || byteRange.map({ bytesRead >= UInt64($0.count) }) == true {
                try finish()
            }
        }
        return demuxer
    }

    /// The segment's video as far as a picture `through` 90 kHz ticks after its first picture needs it (nil: its
    /// first keyframe alone), as a movie of the access units from the first keyframe on, with where the segment's
    /// first picture is on the movie's timeline.
    /// - Throws: `ThumbnailError` `noVideo` (no H.264 or HEVC stream) or `noSamples` (no keyframe in the segment),
    ///   `TransportStreamError`, `MP4Error` from writing the movie, or the source's errors.
    func movie(through offset: Int64?) async throws -> (session: MovieSession, firstPresentation: Int64) {
        let demuxer = try await demuxed { demuxer in
            let units = demuxer.completeAccessUnits
            guard let offset, let first = Self.firstPresentation(of: units) else { return units.contains(where: \.isKeyframe) }
            return units.contains { $0.decodeTime > first &+ offset }
        }
        let units = demuxer.completeAccessUnits
        guard let video = demuxer.video else {
            throw ThumbnailError(.noVideo, "segment \(name) has no H.264 or HEVC video stream", input: name)
        }
        guard let keyframe = units.firstIndex(where: \.isKeyframe), let first = Self.firstPresentation(of: units) else {
            throw ThumbnailError(.noSamples, "segment \(name) has no keyframe in its \(units.count) pictures", input: name)
        }
        let kept = units[keyframe...]
        let next = demuxer.accessUnits.dropFirst(units.count).first
        let track = ElementaryVideoTrack(
            coding: video.codec == .h264 ? .h264 : .hevc, timescale: 90_000,
            parameterSets: video.codec.parameterSets(in: units[...keyframe]),
            samples: kept.map {
                ElementaryVideoTrack.Sample(decodeTime: $0.decodeTime, presentationTime: $0.presentationTime,
                                            isSync: $0.isKeyframe, nalUnits: $0.nalUnits)
            },
            lastSampleDuration: next.flatMap { unit in kept.last.map { unit.decodeTime - $0.decodeTime } })
        let bytes: [UInt8]
        do { bytes = try VideoMovieWriter.movie(of: track) } catch { throw error.located(input: name) }
        let session = MovieSession(source: DemuxedMovieSource(bytes: bytes, segment: source, name: name))
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

/// The movie written from a TS segment's video, in memory; its statistics are the segment's, so the reads of the
/// movie count as nothing and the segment's reads count once.
private struct DemuxedMovieSource: ByteSource {
    let bytes: [UInt8]
    let segment: CountingByteSource
    let name: String

    var knownLength: UInt64? { UInt64(bytes.count) }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let count = UInt64(bytes.count)
        let lower = min(range.lowerBound, count)
        return Array(bytes[Int(lower) ..< Int(min(max(range.upperBound, lower), count))])
    }

    var inputName: String? { name }

    var statistics: FetchStats? { get async { await segment.statistics } }
}
