import Matroska
import MP4Box

/// libFuzzer entry point: the input after its first byte as a Matroska file. `MatroskaLocator` reads it from memory
/// with ends and a guess the first byte picks (so the SeekHead's ranges and the second reads are taken), then
/// `MatroskaClusterReader` reads the picture track's frames from the first Cluster (or the first cue's) in pieces the
/// first byte picks; and `MatroskaClusterSearch` over the bytes for a time the first byte picks. `MatroskaError` is
/// the expected answer to bad input. Traps if a frame's block lies outside the bytes appended, if a frame is larger
/// than its block, if cue points are out of order, or if the search asks for bytes past the file, makes more probes
/// than its limit or ends past the time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let control = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let length = UInt64(bytes.count)
    let ends: UInt64 = [64, 512, 4096, 65536][Int(control & 3)]
    let piece = [1, 7, 1000, 65536][Int(control >> 2 & 3)]
    let limits = MatroskaLimits(maximumHeaderElementBytes: 1 << 20, maximumCuesBytes: 1 << 20, maximumCuePoints: 4096,
                                maximumBlockBytes: 1 << 20, maximumFrames: 512)
    let located: MatroskaLocator.Result
    do {
        located = try MatroskaLocator(headSize: ends, tailSize: ends, elementGuess: ends, limits: limits).run { request in
            (ByteAnswer.answering(request, length: length) { range in
                Array(bytes[Int(min(range.lowerBound, length)) ..< Int(min(range.upperBound, length))])
            }, length)
        }
    } catch {
        return 0
    }
    let file = located.file
    if zip(file.cuePoints, file.cuePoints.dropFirst()).contains(where: { $0.time > $1.time }) {
        fatalError("cue points out of order")
    }
    // The Cluster search over the same bytes, for a time the control byte picks: it must end within its probes at a
    // Cluster at or before the time (or the first), every probe inside the file.
    if let first = MatroskaClusterSearch.clusters(in: bytes, at: 0, before: length).first {
        var search = MatroskaClusterSearch(first: first, end: length, probeBytes: UInt64(piece) * 64)
        let target = Int64(control) * 97
        while let probe = search.nextProbe(for: target) {
            guard probe.lowerBound < probe.upperBound, probe.lowerBound < length, search.probes <= MatroskaClusterSearch.maximumProbes else {
                fatalError("probe \(probe) of a file of \(length) bytes, \(search.probes) probes")
            }
            search.receive(Array(bytes[Int(probe.lowerBound) ..< Int(min(probe.upperBound, length))]), at: probe.lowerBound)
        }
        let start = search.start(for: target)
        if start.time > target && start != search.points[0] { fatalError("the search ended past the time") }
    }
    guard let track = file.pictureTrack else { return 0 }
    let start = control & 0x10 != 0
        ? file.cuePoints.first.flatMap { file.fileOffset(ofSegmentPosition: $0.clusterPosition) } ?? file.firstClusterOffset
        : file.firstClusterOffset
    guard let start, start < length else { return 0 }
    var reader = MatroskaClusterReader(track: track, timestampScale: file.timestampScale, start: start, limits: limits)
    var position = Int(start)
    do {
        while position < bytes.count {
            let end = min(bytes.count, position + piece)
            try reader.append(bytes[position ..< end])
            position = end
        }
    } catch {
        return 0
    }
    reader.finish()
    for frame in reader.frames {
        guard frame.blockOffset >= start, frame.blockEnd <= UInt64(position), frame.blockOffset < frame.blockEnd,
              frame.data.count <= Int(frame.blockEnd - frame.blockOffset) + track.strippedHeader.count else {
            fatalError("a frame of \(frame.data.count) bytes in a block at \(frame.blockOffset)..<\(frame.blockEnd) of \(position) bytes read")
        }
    }
    return 0
}
