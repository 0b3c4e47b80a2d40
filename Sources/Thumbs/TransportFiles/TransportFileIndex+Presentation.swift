import MP4Box
import StreamManifests
import TransportStream

extension TransportFileIndex {
    /// The file as a stream of one period and one rendition, its first program's video: one segment, the whole file,
    /// from its first picture (time zero) to where its last picture ends (`endTime`; without one, a frame's length
    /// or a second), whose times a search finds (`TransportFileSegment`). The rendition's codecs are the coding's
    /// name (`h264`, `hevc`); its bandwidth the file's bytes over its duration.
    func presentation(url: String) -> StreamPresentation {
        let end = endTime.flatMap { $0 > 0 ? Duration.seconds(Double($0) / 90_000) : nil }
        let lasting = end ?? .seconds(Double(frameDuration ?? 90_000) / 90_000)
        let segment = StreamSegment(resource: StreamResource(url: url, byteRange: firstPacket ..< length),
                                    timeRange: .zero ..< lasting, number: 0)
        var bitRate: Int64?
        if let end, end > .zero { bitRate = Int64(Double(length) * 8 / end.seconds) }
        let rendition = StreamRendition(id: "pid \(video.pid)", kind: .video, bandwidth: bitRate,
                                        codecs: video.codec.rawValue, content: .segments(StreamSegments([segment])))
        return StreamPresentation(format: .transportStream, url: url, isLive: false,
                                  periods: [StreamPeriod(start: .zero, duration: end, renditions: [rendition])], duration: end)
    }
}
