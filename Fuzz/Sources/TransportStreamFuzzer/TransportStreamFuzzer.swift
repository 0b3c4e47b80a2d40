import FuzzSupport
import MP4Box
import TransportStream

/// libFuzzer entry point: the input after its first byte as an MPEG transport stream, appended to the demuxer in
/// pieces whose size the first byte picks (1 to 4,096 bytes), then finished; then the access units from the first
/// keyframe written as a movie by `VideoMovieWriter` (as a stream thumbnail does), and that movie parsed and looked
/// up. `TransportStreamError` and `MP4Error` are the expected answers to bad input. Traps if an access unit lies
/// outside the bytes appended, if the complete ones are not a prefix of all, or if a movie that was written does not
/// parse or has another number of samples.
///
/// The same bytes are then read as a bare transport stream file: `TransportFileIndex` from its ends (16 KiB each), and
/// a `TransportTimeSearch` for a time the control byte picks, fed the probes it asks for until it asks for none.
/// Traps if a probe lies outside the file or is empty, if the search asks for more probes than its most, or if the
/// keyframe it gives is not one of the pictures the probes showed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let control = input.first else { return 0 }
    let bytes = input.dropFirst()
    let piece = [1, 7, 188, 189, 1000, 4096][Int(control) % 6]
    searchAsAFile(Array(bytes), control: control)
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
    guard let video = demuxer.video, video.codec == .h264 || video.codec == .hevc,
          let keyframe = demuxer.accessUnits.firstIndex(where: \.isKeyframe) else { return 0 }
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

/// `bytes` read as a transport stream file and searched for a time: the invariants above.
func searchAsAFile(_ bytes: [UInt8], control: UInt8) {
    let ends = 16 << 10
    let tailOffset = max(ends, bytes.count - ends)
    guard let index = try? TransportFileIndex(head: Array(bytes.prefix(ends)), tail: tailOffset < bytes.count ? Array(bytes[tailOffset...]) : [],
                                              tailOffset: UInt64(min(tailOffset, bytes.count)), length: UInt64(bytes.count)) else { return }
    var search = index.search(probeBytes: 1 << 10)
    let target = Int64(control) * 9_000 - 90_000
    let goal: TransportTimeSearch.Goal = control & 1 == 0 ? .nearest : .atOrBefore
    var asked = 0
    while let probe = search.nextProbe(for: target, goal: goal) {
        asked += 1
        guard asked <= TransportTimeSearch.maximumProbes else { fatalError("more than \(TransportTimeSearch.maximumProbes) probes") }
        guard !probe.isEmpty, probe.upperBound <= UInt64(bytes.count) else {
            fatalError("probe \(probe) of a file of \(bytes.count) bytes")
        }
        search.receive(Array(bytes[Int(probe.lowerBound) ..< Int(probe.upperBound)]), at: probe.lowerBound)
    }
    if let keyframe = search.keyframe(for: target, goal: goal), !search.points.contains(keyframe) || !keyframe.isKeyframe {
        fatalError("keyframe \(keyframe) is not a keyframe the reads showed")
    }
}
