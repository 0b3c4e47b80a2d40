/// Writes a `CodedVideoTrack` (or an `ElementaryVideoTrack`, as an `avc3`/`hev1` entry whose `avcC`/`hvcC` holds the
/// parameter sets and samples of 4-byte length-prefixed NAL units) as a movie the rest of MP4Box reads like any other:
/// `ftyp`, a `moov` with one video track (the sample entry and its boxes, `stts`, `ctts`, `stss`, `sdtp`, `stsz`, one
/// chunk), then an `mdat` of the samples. No edit list: a sample's presentation time in the
/// movie is its presentation time less the first sample's decoding time.
public enum VideoMovieWriter {
    /// Bytes in each NAL unit length prefix written.
    static let lengthSize = 4

    /// The movie of `track`.
    /// - Throws: `MP4Error` `malformed` when the track has no samples, no sequence parameter set (or one that cannot
    ///   be read), or decoding times that go back; `limitExceeded` for a movie past 4 GiB.
    public static func movie(of track: ElementaryVideoTrack) throws(MP4Error) -> [UInt8] {
        try movie(of: codedTrack(of: track))
    }

    /// `track` as the coded track its movie is written from: an `avc3`/`hev1` entry whose `avcC`/`hvcC` holds the
    /// parameter sets, samples of 4-byte length-prefixed NAL units.
    /// - Throws: `MP4Error` `malformed` when the track has no samples or no sequence parameter set (or one that
    ///   cannot be read).
    public static func codedTrack(of track: ElementaryVideoTrack) throws(MP4Error) -> CodedVideoTrack {
        guard !track.samples.isEmpty else { throw error(.malformed, "the track has no samples") }
        let spsType: UInt8 = track.coding == .h264 ? 7 : 33
        guard let sps = track.parameterSet(ofType: spsType) else {
            throw error(.malformed, "no sequence parameter set before the first picture")
        }
        let parameters = try track.coding == .h264 ? H264SequenceParameterSet.parse(sps) : HEVCSequenceParameterSet.parse(sps)
        var record = BoxWriter()
        if track.coding == .h264 {
            ConfigurationRecord.writeAVC(&record, track, parameters: parameters)
        } else {
            ConfigurationRecord.writeHEVC(&record, track, parameters: parameters)
        }
        var samples: [CodedVideoTrack.Sample] = []
        samples.reserveCapacity(track.samples.count)
        for sample in track.samples {
            var data = BoxWriter()
            for unit in sample.nalUnits {
                data.uint32(UInt32(clamping: unit.count))
                data.append(unit)
            }
            samples.append(CodedVideoTrack.Sample(decodeTime: sample.decodeTime, presentationTime: sample.presentationTime,
                                                  isSync: sample.isSync, isDisposable: sample.isDisposable, data: data.bytes))
        }
        return CodedVideoTrack(
            sampleEntry: track.coding == .h264 ? "avc3" : "hev1",
            entryBoxes: [CodedVideoTrack.EntryBox(type: track.coding == .h264 ? "avcC" : "hvcC", payload: record.bytes)],
            width: UInt32(clamping: parameters.width), height: UInt32(clamping: parameters.height),
            timescale: track.timescale, samples: samples, lastSampleDuration: track.lastSampleDuration)
    }

    /// The movie of `track`: its samples as they are, its sample entry with the boxes it lists.
    /// - Throws: `MP4Error` `malformed` when the track has no samples or decoding times that go back;
    ///   `limitExceeded` for a movie past 4 GiB.
    public static func movie(of track: CodedVideoTrack) throws(MP4Error) -> [UInt8] {
        guard !track.samples.isEmpty else { throw error(.malformed, "the track has no samples") }
        var durations: [Int64] = []
        for (sample, next) in zip(track.samples, track.samples.dropFirst()) {
            let duration = next.decodeTime &- sample.decodeTime
            guard duration >= 0, duration <= Int64(UInt32.max) else {
                throw error(.malformed, "decoding time \(next.decodeTime) follows \(sample.decodeTime)")
            }
            durations.append(duration)
        }
        durations.append(max(0, min(track.lastSampleDuration ?? durations.last ?? 0, Int64(UInt32.max))))
        let sizes = track.samples.map(\.data.count)
        let alphaSizes = track.alpha.map { $0.map(\.count) }
        if let alphaSizes, alphaSizes.count != sizes.count {
            throw error(.malformed, "\(alphaSizes.count) alpha pictures for \(sizes.count) samples")
        }
        let mediaBytes = sizes.reduce(0, +) + (alphaSizes?.reduce(0, +) ?? 0)
        guard mediaBytes < Int(UInt32.max) - (1 << 20) else {
            throw error(.limitExceeded, "\(mediaBytes) bytes of samples do not fit one 32-bit mdat")
        }
        let duration = UInt64(durations.reduce(0, +))
        var writer = BoxWriter()
        writer.box("ftyp") { ftyp in
            ftyp.fourCC("isom"); ftyp.uint32(0x200); ftyp.fourCC("isom"); ftyp.fourCC("iso6")
        }
        // The moov is written twice: first to learn its size, then with the chunk offset after it.
        let moovStart = writer.bytes.count
        var moov = moovBox(track, durations: durations, sizes: sizes, alphaSizes: alphaSizes, duration: duration, chunkOffset: 0)
        let chunkOffset = UInt32(moovStart + moov.count + 8)
        moov = moovBox(track, durations: durations, sizes: sizes, alphaSizes: alphaSizes, duration: duration, chunkOffset: chunkOffset)
        writer.append(moov)
        writer.box("mdat") { mdat in
            for sample in track.samples { mdat.append(sample.data) }
            for picture in track.alpha ?? [] { mdat.append(picture) }
        }
        return writer.bytes
    }

    private static func error(_ code: MP4Error.Code, _ detail: String) -> MP4Error {
        MP4Error(code, path: "", offset: 0, detail)
    }

    /// The moov: the track (ID 1), and its alpha pictures' auxiliary track (ID 2, handler `auxv`, `tref`/`auxl` naming
    /// track 1, its samples in a chunk after the track's) where there are any.
    private static func moovBox(_ track: CodedVideoTrack, durations: [Int64], sizes: [Int], alphaSizes: [Int]?, duration: UInt64,
                                chunkOffset: UInt32) -> [UInt8] {
        var writer = BoxWriter()
        writer.box("moov") { moov in
            moov.fullBox("mvhd", version: 1) { mvhd in
                mvhd.uint64(0); mvhd.uint64(0)
                mvhd.uint32(track.timescale); mvhd.uint64(duration)
                mvhd.uint32(0x0001_0000); mvhd.uint16(0x0100); mvhd.zeros(10)
                writeIdentityMatrix(&mvhd)
                mvhd.zeros(24); mvhd.uint32(alphaSizes == nil ? 2 : 3)
            }
            writeTrack(&moov, track, id: 1, handler: "vide", durations: durations, sizes: sizes, duration: duration,
                       chunkOffset: chunkOffset)
            if let alphaSizes {
                writeTrack(&moov, track, id: 2, handler: "auxv", durations: durations, sizes: alphaSizes, duration: duration,
                           chunkOffset: chunkOffset + UInt32(sizes.reduce(0, +)))
            }
        }
        return writer.bytes
    }

    private static func writeTrack(_ moov: inout BoxWriter, _ track: CodedVideoTrack, id: UInt32, handler: FourCC,
                                   durations: [Int64], sizes: [Int], duration: UInt64, chunkOffset: UInt32) {
        let (width, height) = (track.width, track.height)
        moov.box("trak") { trak in
            trak.fullBox("tkhd", version: 1, flags: 0x3) { tkhd in
                tkhd.uint64(0); tkhd.uint64(0); tkhd.uint32(id); tkhd.uint32(0); tkhd.uint64(duration)
                tkhd.zeros(8); tkhd.uint16(0); tkhd.uint16(0); tkhd.uint16(0); tkhd.uint16(0)
                writeIdentityMatrix(&tkhd)
                tkhd.uint32(width << 16); tkhd.uint32(height << 16)
            }
            if handler == "auxv" {
                trak.box("tref") { tref in
                    tref.box(TrackReferenceTypeBox.auxiliaryFourCC) { $0.uint32(1) }
                }
            }
            trak.box("mdia") { mdia in
                mdia.fullBox("mdhd", version: 1) { mdhd in
                    mdhd.uint64(0); mdhd.uint64(0); mdhd.uint32(track.timescale); mdhd.uint64(duration)
                    mdhd.uint16(0x55C4); mdhd.uint16(0)  // "und"
                }
                mdia.fullBox("hdlr") { hdlr in
                    hdlr.uint32(0); hdlr.fourCC(handler); hdlr.zeros(12); hdlr.append(Array("VideoHandler".utf8)); hdlr.uint8(0)
                }
                mdia.box("minf") { minf in
                    minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref") { dref in
                            dref.uint32(1)
                            dref.fullBox("url ", flags: 1) { _ in }
                        }
                    }
                    minf.box("stbl") { stbl in
                        writeSampleTable(&stbl, track, durations: durations, sizes: sizes, chunkOffset: chunkOffset)
                    }
                }
            }
        }
    }

    private static func writeIdentityMatrix(_ writer: inout BoxWriter) {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { writer.uint32(value) }
    }

    private static func writeSampleTable(_ stbl: inout BoxWriter, _ track: CodedVideoTrack, durations: [Int64], sizes: [Int],
                                         chunkOffset: UInt32) {
        stbl.fullBox("stsd") { stsd in
            stsd.uint32(1)
            stsd.box(track.sampleEntry) { entry in
                entry.zeros(6); entry.uint16(1)
                entry.zeros(16)
                entry.uint16(UInt16(clamping: track.width)); entry.uint16(UInt16(clamping: track.height))
                entry.uint32(0x0048_0000); entry.uint32(0x0048_0000); entry.uint32(0); entry.uint16(1)
                entry.zeros(32)
                entry.uint16(0x18); entry.uint16(0xFFFF)
                for box in track.entryBoxes {
                    entry.box(box.type) { $0.append(box.payload) }
                }
            }
        }
        // stts: runs of equal durations.
        var runs: [(count: UInt32, delta: UInt32)] = []
        for duration in durations {
            if let last = runs.last, last.delta == UInt32(duration) { runs[runs.count - 1].count += 1 } else {
                runs.append((1, UInt32(duration)))
            }
        }
        stbl.fullBox("stts") { stts in
            stts.uint32(UInt32(runs.count))
            for run in runs { stts.uint32(run.count); stts.uint32(run.delta) }
        }
        let offsets = track.samples.map { $0.presentationTime - $0.decodeTime }
        if offsets.contains(where: { $0 != 0 }) {
            stbl.fullBox("ctts", version: 1) { ctts in
                ctts.uint32(UInt32(offsets.count))
                for offset in offsets { ctts.uint32(1); ctts.int32(Int32(clamping: offset)) }
            }
        }
        if !track.samples.allSatisfy(\.isSync) {
            let sync = track.samples.indices.filter { track.samples[$0].isSync }
            stbl.fullBox("stss") { stss in
                stss.uint32(UInt32(sync.count))
                for index in sync { stss.uint32(UInt32(index + 1)) }
            }
        }
        if track.samples.contains(where: \.isDisposable) {
            // sample_depends_on 2 (none) for sync samples, else 1; sample_is_depended_on 2 (none) where disposable.
            stbl.fullBox("sdtp") { sdtp in
                for sample in track.samples {
                    sdtp.uint8((sample.isSync ? 2 : 1) << 4 | (sample.isDisposable ? 2 : 1) << 2)
                }
            }
        }
        stbl.fullBox("stsz") { stsz in
            stsz.uint32(0); stsz.uint32(UInt32(sizes.count))
            for size in sizes { stsz.uint32(UInt32(size)) }
        }
        stbl.fullBox("stsc") { stsc in
            stsc.uint32(1); stsc.uint32(1); stsc.uint32(UInt32(sizes.count)); stsc.uint32(1)
        }
        stbl.fullBox("stco") { stco in
            stco.uint32(1); stco.uint32(chunkOffset)
        }
    }
}
