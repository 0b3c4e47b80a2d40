import Matroska
import MP4Box
import StreamManifests

extension MatroskaIndex {
    /// The file as a stream of one period and one rendition, its picture track: a segment for each Cluster a cue
    /// point of the track names (the first cue point of a Cluster starts it; a later one in the same Cluster is read
    /// on to, as a TS segment's keyframes past its first are), from the Cluster's start to the next such Cluster's
    /// (the last to the Segment's end), playing from its cue time to the next one's (the last to the Duration). A file
    /// without Cues is one segment from its first Cluster, whose times a search finds; without a Duration (as
    /// MediaRecorder writes), it lasts until the last frame in `held` (the file's ends) ends.
    /// The rendition's codecs are the track's CodecID (`V_VP9`), whether or not a decoder here reads it.
    /// - Throws: `ThumbnailError` `noVideo` without a video track, `noSamples` without a Cluster to read.
    func presentation(url: String) throws(ThumbnailError) -> StreamPresentation {
        guard let track = file.pictureTrack, let video = track.video else {
            throw ThumbnailError(.noVideo, "the \(file.docType) file has no video track", input: url)
        }
        let end = file.fileLength ?? file.segmentEnd ?? StreamResource.maximumOffset
        let lastTime = endTime.map { Duration.nanoseconds(file.nanoseconds($0)) }
        var starts: [(offset: UInt64, time: Duration)] = []
        for cue in file.cuePoints {
            guard let offset = file.fileOffset(ofSegmentPosition: cue.clusterPosition), offset < end else { continue }
            if let last = starts.last, last.offset >= offset { continue }
            starts.append((offset, .nanoseconds(file.nanoseconds(Int64(clamping: cue.time)))))
        }
        if starts.isEmpty {
            guard let first = file.firstClusterOffset else {
                throw ThumbnailError(.noSamples, "the \(file.docType) file has no Cues and no Cluster in its first bytes", input: url)
            }
            starts = [(first, .zero)]
        }
        var segments: [StreamSegment] = []
        // A file without Cues is searched for its times (`MatroskaSegment`).
        let searched = file.cuePoints.isEmpty
        for (index, start) in starts.enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : nil
            // Without a Duration the last span lasts as long as the one before it (or a second).
            let fallback = index > 0 ? start.time + (start.time - starts[index - 1].time) : start.time + .seconds(1)
            let until = next?.time ?? max(lastTime ?? fallback, start.time + .nanoseconds(1))
            var segment = StreamSegment(resource: StreamResource(url: url, byteRange: start.offset ..< (next?.offset ?? end)),
                                        timeRange: start.time ..< max(until, start.time + .nanoseconds(1)), number: Int64(index))
            segment.keyframesFoundBySearch = searched
            segments.append(segment)
        }
        let total = segments.last.map { $0.timeRange.upperBound }
        var bitRate: Int64?
        if let fileLength = file.fileLength, let total, total > .zero {
            bitRate = Int64(Double(fileLength) * 8 / total.seconds)
        }
        let rendition = StreamRendition(id: "track \(track.number)", kind: .video, bandwidth: bitRate,
                                        width: Int(clamping: video.pixelWidth), height: Int(clamping: video.pixelHeight),
                                        codecs: track.codecID, content: .segments(StreamSegments(segments)))
        return StreamPresentation(format: .matroska, url: url, isLive: false,
                                  periods: [StreamPeriod(start: .zero, duration: total, renditions: [rendition])], duration: total)
    }
}

extension MatroskaFile {
    /// Where the last frame of `track` in the last Cluster `held` has whole ends (its timestamp plus the track's frame
    /// duration, else the step between the last two frames), in timestamp units; nil when the bytes held show none.
    func lastFrameEnd(in held: HeldBytes, track: MatroskaTrack) -> Int64? {
        for span in held.spans.reversed() {
            let clusters = MatroskaClusterSearch.clusters(in: span.bytes, at: span.offset, before: span.range.upperBound + 1)
            for cluster in clusters.reversed() {
                var reader = MatroskaClusterReader(track: track, timestampScale: timestampScale, start: cluster.offset)
                try? reader.append(span.bytes[Int(cluster.offset - span.offset)...])
                let times = reader.frames.map(\.timestamp).sorted()
                guard let last = times.last else { continue }
                let step = track.frameDuration(timestampScale: timestampScale) ?? (times.count > 1 ? last - times[times.count - 2] : 0)
                return last &+ max(0, step)
            }
        }
        return nil
    }
}
