import MP4Box

/// Movies whose one video track claims millions of samples with tables of a few bytes, and whose media data is
/// never held: they are read through `SparseByteSource`, zeros past the index. For tests that lookups, plans and
/// memory stay bounded whatever the counts say.
public enum LongTrackMovie {
    /// The size of sample `index` in a size table: 1 to 7 bytes, so sums are easy to check.
    public static func tableSize(of index: Int) -> UInt32 { 1 + UInt32(index % 7) }

    /// A moov-first movie of `sampleCount` samples of one frame each at 30 a second, all in one chunk that starts
    /// at `chunkOffset(...)`; `constantSize` writes stsz with one size, nil writes a size per sample (`tableSize(of:)`).
    public static func standard(sampleCount: UInt32, constantSize: UInt32?, syncSamples: [UInt32]) -> SparseByteSource {
        let (head, mediaBytes) = index(sampleCount: sampleCount, constantSize: constantSize, syncSamples: syncSamples, chunkOffset: 0)
        let chunkOffset = chunkOffset(indexSize: head.count)
        let (moov, _) = index(sampleCount: sampleCount, constantSize: constantSize, syncSamples: syncSamples, chunkOffset: chunkOffset)
        let mdat = BoxBuilder.u32(1) + BoxBuilder.fourCC("mdat") + BoxBuilder.u64(UInt64(chunkOffset) - UInt64(moov.count) + mediaBytes)
        return SparseByteSource(prefix: moov + mdat, length: UInt64(chunkOffset) + mediaBytes)
    }

    /// Where `standard`'s one chunk starts: 4096, or the first multiple of 4096 after a larger index and mdat's header.
    public static func chunkOffset(sampleCount: UInt32, constantSize: UInt32?, syncSamples: [UInt32]) -> UInt64 {
        UInt64(chunkOffset(indexSize: index(sampleCount: sampleCount, constantSize: constantSize, syncSamples: syncSamples,
                                            chunkOffset: 0).head.count))
    }

    private static func chunkOffset(indexSize: Int) -> UInt32 {
        UInt32((indexSize + 16 + 4095) / 4096 * 4096)
    }

    /// ftyp and moov, and the bytes of the media.
    private static func index(sampleCount: UInt32, constantSize: UInt32?, syncSamples: [UInt32],
                              chunkOffset: UInt32) -> (head: [UInt8], mediaBytes: UInt64) {
        let timescale: UInt32 = 30
        let ftyp = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(512))
        let mvhd = BoxBuilder.fullBox("mvhd", BoxBuilder.zeros(8) + BoxBuilder.u32(timescale)  // times, timescale
            + BoxBuilder.u32(sampleCount) + BoxBuilder.u32(0x10000) + BoxBuilder.u16(0x100) + BoxBuilder.zeros(10)  // duration, rate, volume
            + BoxBuilder.matrix(a: 1, b: 0, c: 0, d: 1) + BoxBuilder.zeros(24) + BoxBuilder.u32(2))  // matrix, next track
        let tkhd = BoxBuilder.fullBox("tkhd", flags: 3, BoxBuilder.zeros(8) + BoxBuilder.u32(1) + BoxBuilder.zeros(4)  // track 1
            + BoxBuilder.u32(sampleCount) + BoxBuilder.zeros(16)                                      // duration, reserved
            + BoxBuilder.matrix(a: 1, b: 0, c: 0, d: 1) + BoxBuilder.u32(64 << 16) + BoxBuilder.u32(48 << 16))  // 64x48
        let mdhd = BoxBuilder.fullBox("mdhd", BoxBuilder.zeros(8) + BoxBuilder.u32(timescale) + BoxBuilder.u32(sampleCount)
            + BoxBuilder.u16(0x55C4) + BoxBuilder.u16(0))
        let hdlr = BoxBuilder.fullBox("hdlr", BoxBuilder.zeros(4) + BoxBuilder.fourCC("vide") + BoxBuilder.zeros(12) + [0])
        let sizes = constantSize.map { BoxBuilder.u32($0) + BoxBuilder.u32(sampleCount) }
            ?? BoxBuilder.u32(0) + BoxBuilder.u32(sampleCount) + (0..<Int(sampleCount)).flatMap { BoxBuilder.u32(tableSize(of: $0)) }
        let stbl = BoxBuilder.fullBox("stsd", BoxBuilder.u32(1) + SyntheticMovie.avc1Entry())
            + BoxBuilder.fullBox("stts", BoxBuilder.u32(1) + BoxBuilder.u32(sampleCount) + BoxBuilder.u32(1))  // one run of 1
            + BoxBuilder.fullBox("stss", BoxBuilder.u32(UInt32(syncSamples.count)) + syncSamples.flatMap(BoxBuilder.u32))
            + BoxBuilder.fullBox("stsz", sizes)
            + BoxBuilder.fullBox("stsc", BoxBuilder.u32(1) + BoxBuilder.u32(1) + BoxBuilder.u32(sampleCount) + BoxBuilder.u32(1))
            + BoxBuilder.fullBox("stco", BoxBuilder.u32(1) + BoxBuilder.u32(chunkOffset))
        let moov = BoxBuilder.box("moov", mvhd + BoxBuilder.box("trak", tkhd
            + BoxBuilder.box("mdia", mdhd + hdlr + BoxBuilder.box("minf", BoxBuilder.box("stbl", stbl)))))
        let mediaBytes = constantSize.map { UInt64($0) * UInt64(sampleCount) }
            ?? (0..<Int(sampleCount)).reduce(UInt64(0)) { $0 + UInt64(tableSize(of: $1)) }
        return (ftyp + moov, mediaBytes)
    }

    /// The init segment of `fragmented.mp4` (track 1) and one moof whose 20-byte trun claims `sampleCount` samples
    /// of `sampleSize` bytes and one frame each, with tfhd's default flags (`defaultFlags`) and, if given, first-sample flags.
    public static func fragmented(sampleCount: UInt32, sampleSize: UInt32, defaultFlags: UInt32,
                                  firstSampleFlags: UInt32? = nil) throws -> (source: SparseByteSource, dataOffset: UInt64) {
        let initSegment = Array(try Fixtures.bytes("fragmented").prefix(742))  // ftyp + moov
        let tfhd = BoxBuilder.fullBox("tfhd", flags: 0x02_0038, BoxBuilder.u32(1)  // default-base-is-moof, duration, size, flags
            + BoxBuilder.u32(1) + BoxBuilder.u32(sampleSize) + BoxBuilder.u32(defaultFlags))
        let tfdt = BoxBuilder.fullBox("tfdt", version: 1, BoxBuilder.u64(0))
        let trunFlags: UInt32 = firstSampleFlags == nil ? 0x1 : 0x5  // data offset (+ first sample flags)
        let trunSize = 20 + (firstSampleFlags == nil ? 0 : 4)
        let mfhd = BoxBuilder.fullBox("mfhd", BoxBuilder.u32(1))
        let moofSize = 8 + mfhd.count + 8 + tfhd.count + tfdt.count + trunSize
        let trun = BoxBuilder.fullBox("trun", flags: trunFlags, BoxBuilder.u32(sampleCount)
            + BoxBuilder.i32(Int32(moofSize + 16)) + (firstSampleFlags.map(BoxBuilder.u32) ?? []))  // data starts after mdat's header
        let moof = BoxBuilder.box("moof", mfhd + BoxBuilder.box("traf", tfhd + tfdt + trun))
        let mediaBytes = UInt64(sampleSize) * UInt64(sampleCount)
        let mdat = BoxBuilder.u32(1) + BoxBuilder.fourCC("mdat") + BoxBuilder.u64(16 + mediaBytes)
        let prefix = initSegment + moof + mdat
        return (SparseByteSource(prefix: prefix, length: UInt64(prefix.count) + mediaBytes), UInt64(prefix.count))
    }
}
