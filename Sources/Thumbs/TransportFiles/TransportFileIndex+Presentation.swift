import MP4Box
import StreamManifests
import TransportStream

extension TransportFileIndex {
    /// The file as a stream of one period and one rendition, its first program's video: one segment, the whole file,
    /// from its first picture (time zero) to where its last picture ends (`endTime`; without one, a frame's length
    /// or a second), whose times a search finds (`TransportFileSegment`). The rendition's codecs are the coding's
    /// name (`h264`, `hevc`, `mpeg2`); its size the first picture's (its SPS's cropped size, its sequence header's),
    /// where the head holds its parameter sets; its bandwidth the file's bytes over its duration.
    func presentation(url: String) -> StreamPresentation {
        let end = endTime.flatMap { $0 > 0 ? Duration.seconds(Double($0) / 90_000) : nil }
        let lasting = end ?? .seconds(Double(frameDuration ?? 90_000) / 90_000)
        var segment = StreamSegment(resource: StreamResource(url: url, byteRange: firstPacket ..< length),
                                    timeRange: .zero ..< lasting, number: 0)
        segment.keyframesFoundBySearch = true
        var bitRate: Int64?
        if let end, end > .zero { bitRate = Int64(Double(length) * 8 / end.seconds) }
        let size = pictureSize
        let rendition = StreamRendition(id: "pid \(video.pid)", kind: .video, bandwidth: bitRate, width: size?.width,
                                        height: size?.height, codecs: video.codec.rawValue,
                                        content: .segments(StreamSegments([segment])))
        return StreamPresentation(format: .transportStream, url: url, isLive: false,
                                  periods: [StreamPeriod(start: .zero, duration: end, renditions: [rendition])], duration: end)
    }

    /// The first picture's size, from its parameter sets; nil where the head holds none that reads.
    var pictureSize: (width: Int, height: Int)? {
        switch video.codec {
        case .h264, .hevc:
            let type: UInt8 = video.codec == .h264 ? 7 : 33
            guard let sps = parameterSets.first(where: { $0.first.map(video.codec.nalUnitType) == type }),
                  let parameters = try? (video.codec == .h264 ? H264SequenceParameterSet.parse(sps) : HEVCSequenceParameterSet.parse(sps))
            else { return nil }
            return (parameters.width, parameters.height)
        case .mpeg2:
            return parameterSets.first.flatMap(MPEG2VideoHeaders.Sequence.init).map { ($0.width, $0.height) }
        case .mpeg4Visual:
            return parameterSets.lazy.compactMap(MPEG4VisualHeaders.ObjectLayer.init).first.map { ($0.width, $0.height) }
        }
    }
}
