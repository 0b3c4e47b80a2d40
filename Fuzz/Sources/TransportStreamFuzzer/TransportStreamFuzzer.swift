import FuzzSupport
import MP4Box
import TransportStream

/// libFuzzer entry point: the input after its first byte as an MPEG transport stream, appended to the demuxer in
/// pieces whose size the first byte picks (1 to 4,096 bytes), then finished; then the access units from the first
/// keyframe written as a movie by `VideoMovieWriter` (as a stream thumbnail does), and that movie parsed and looked
/// up. `TransportStreamError` and `MP4Error` are the expected answers to bad input. Traps if an access unit lies
/// outside the bytes appended, if the complete ones are not a prefix of all, or if a movie that was written does not
/// parse or has another number of samples.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let control = input.first else { return 0 }
    let bytes = input.dropFirst()
    let piece = [1, 7, 188, 189, 1000, 4096][Int(control) % 6]
    var demuxer = TransportStreamDemuxer(limits: TransportStreamLimits(maximumAccessUnitBytes: 1 << 20, maximumHeldBytes: 4 << 20,
                                                                       maximumAccessUnits: 512, maximumBytesBeforeVideo: 64 << 10))
    var start = bytes.startIndex
    do {
        while start < bytes.endIndex {
            let end = min(start + piece, bytes.endIndex)
            try demuxer.append(bytes[start ..< end])
            start = end
            let complete = demuxer.completeAccessUnits
            if complete.count > demuxer.accessUnits.count || complete.count < demuxer.accessUnits.count - 1 {
                fatalError("\(complete.count) complete access units of \(demuxer.accessUnits.count)")
            }
        }
        try demuxer.finish()
    } catch {
        return 0
    }
    for unit in demuxer.accessUnits where unit.byteRange.upperBound > demuxer.bytesAppended || unit.byteRange.isEmpty {
        fatalError("access unit at \(unit.byteRange) of \(demuxer.bytesAppended) bytes")
    }
    guard let video = demuxer.video, let keyframe = demuxer.accessUnits.firstIndex(where: \.isKeyframe) else { return 0 }
    let samples = demuxer.accessUnits[keyframe...].map {
        ElementaryVideoTrack.Sample(decodeTime: $0.decodeTime, presentationTime: $0.presentationTime, isSync: $0.isKeyframe,
                                    nalUnits: $0.nalUnits, isDisposable: $0.isDisposable)
    }
    let track = ElementaryVideoTrack(coding: video.codec == .h264 ? .h264 : .hevc, timescale: 90_000,
                                     parameterSets: video.codec.parameterSets(in: demuxer.accessUnits[...keyframe]),
                                     samples: samples)
    guard let written = try? VideoMovieWriter.movie(of: track) else { return 0 }
    let movie: Movie
    do {
        movie = try MovieParser.parse(fileBytes: written)
    } catch {
        fatalError("a written movie does not parse: \(error)")
    }
    guard let parsed = movie.primaryVideoTrack, parsed.samples.count == samples.count else {
        fatalError("a movie of \(samples.count) samples reads back as \(movie.primaryVideoTrack?.samples.count ?? -1)")
    }
    blackHole(exerciseLookups(movie))
    return 0
}
