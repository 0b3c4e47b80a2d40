import ByteSources
import MP4Box

/// Builds a small but complete movie in code, so a test knows every offset, size and time it should parse back.
///
/// The samples are dummy bytes in one mdat; the index describes them with
/// whichever table forms the test asks for (co64, stz2, several sample
/// entries, edit lists, sdtp, ...).
public struct SyntheticMovie {
    /// Sample sizes in decode order.
    public var sampleSizes: [UInt32] = [40, 10, 12, 11, 30, 9, 13, 8]
    /// Sample durations (stts deltas).
    public var durations: [UInt32] = [512, 512, 512, 512, 512, 512, 512, 512]
    /// Composition offsets (ctts); nil writes no ctts.
    public var compositionOffsets: [Int32]? = [1024, 2560, 512, 1536, 1024, 2560, 512, 1536]
    /// 1-based sync sample numbers; nil writes no stss (every sample is sync).
    public var syncSamples: [UInt32]? = [1, 5]
    /// Samples per chunk, one entry per chunk.
    public var samplesPerChunk: [Int] = [3, 3, 2]
    /// 1-based sample description index per chunk.
    public var descriptionIndexPerChunk: [UInt32] = [1, 1, 1]
    /// Number of avc1 sample entries in stsd.
    public var sampleEntryCount = 1
    /// Edit list entries: (segment duration in movie timescale, media time, rate 16.16); nil writes no edts.
    public var edits: [(UInt64, Int64, Int32)]? = [(4000, 1024, 0x10000)]
    /// Write chunk offsets as co64.
    public var useCO64 = false
    /// Write sample sizes as stz2 with this field size (4, 8 or 16); nil writes stsz.
    public var compactSampleSizeField: Int? = nil
    /// Write the edit list as version 1.
    public var editListVersion1 = false
    /// Put moov before mdat.
    public var moovFirst = true
    /// sdtp bytes, one per sample; nil writes no sdtp.
    public var sdtp: [UInt8]? = nil
    /// The tkhd matrix (a, b, c, d).
    public var matrix: (Int32, Int32, Int32, Int32) = (1, 0, 0, 1)
    /// Extra zero bytes placed between chunks so chunk offsets are not contiguous.
    public var chunkGap = 7
    /// Media timescale.
    public var timescale: UInt32 = 12800
    /// Movie timescale.
    public var movieTimescale: UInt32 = 1000

    /// The bytes of the sample entry to write instead of the default avc1 (repeated `sampleEntryCount` times).
    public var sampleEntry: [UInt8]? = nil
    /// What 1 is written as in the tkhd matrix's a, b, c, d: 16.16 fixed point, or 1 as some writers do.
    public var matrixUnit: Int32 = 1 << 16
    /// Write QuickTime's handlers: mdia/hdlr as a media handler (mhlr) and a data handler (dhlr, alis) in minf.
    public var quickTimeHandlers = false
    /// The media handler type: `vide`, or `soun` for a sound track (with an audio `sampleEntry`).
    public var handlerType = "vide"

    /// The defaults: 8 samples, B-frame style composition offsets, 3 chunks.
    public init() {}

    /// The defaults with another sample entry.
    public init(sampleEntry: [UInt8]) {
        self.sampleEntry = sampleEntry
    }

    /// The bytes of the file.
    public func bytes() -> [UInt8] {
        let ftyp = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(512) + BoxBuilder.fourCC("isom") + BoxBuilder.fourCC("avc1"))
        // Lay out mdat payload: chunks with gaps, sample bytes filled with the sample number.
        var payload: [UInt8] = []
        var chunkPayloadOffsets: [Int] = []
        var sample = 0
        for perChunk in samplesPerChunk {
            payload += BoxBuilder.zeros(chunkGap)
            chunkPayloadOffsets.append(payload.count)
            for _ in 0..<perChunk where sample < sampleSizes.count {
                payload += [UInt8](repeating: UInt8(truncatingIfNeeded: sample + 1), count: Int(sampleSizes[sample]))
                sample += 1
            }
        }
        let mdatHeaderSize = 8
        // moov size does not depend on the offsets' values, so build once to measure.
        let measured = moov(chunkOffsets: chunkPayloadOffsets.map { UInt64($0) })
        let mdatStart = moovFirst ? ftyp.count + measured.count : ftyp.count
        let offsets = chunkPayloadOffsets.map { UInt64(mdatStart + mdatHeaderSize + $0) }
        let moovBytes = moov(chunkOffsets: offsets)
        let mdat = BoxBuilder.box("mdat", payload)
        return moovFirst ? ftyp + moovBytes + mdat : ftyp + mdat + moovBytes
    }

    /// The file offset of each sample, computed from the layout (the oracle for tests).
    public func expectedOffsets() -> [UInt64] {
        var offsets: [UInt64] = []
        let ftypSize = 8 + 16
        let moovSize = moov(chunkOffsets: samplesPerChunk.map { _ in 0 }).count
        var position = UInt64((moovFirst ? ftypSize + moovSize : ftypSize) + 8)
        var sample = 0
        for perChunk in samplesPerChunk {
            position += UInt64(chunkGap)
            for _ in 0..<perChunk where sample < sampleSizes.count {
                offsets.append(position)
                position += UInt64(sampleSizes[sample])
                sample += 1
            }
        }
        return offsets
    }

    func moov(chunkOffsets: [UInt64]) -> [UInt8] {
        let totalDuration = durations.reduce(UInt64(0)) { $0 + UInt64($1) }
        let mvhd = BoxBuilder.fullBox("mvhd", BoxBuilder.u32(0) + BoxBuilder.u32(0)   // creation, modification
            + BoxBuilder.u32(movieTimescale)                                          // timescale
            + BoxBuilder.u32(UInt32(totalDuration * UInt64(movieTimescale) / UInt64(timescale)))  // duration
            + BoxBuilder.u32(0x10000) + BoxBuilder.u16(0x100) + BoxBuilder.zeros(10)  // rate, volume, reserved
            + BoxBuilder.matrix(a: 1, b: 0, c: 0, d: 1)                              // matrix
            + BoxBuilder.zeros(24) + BoxBuilder.u32(2))                               // pre_defined, next_track_ID
        let (a, b, c, d) = matrix
        let tkhd = BoxBuilder.fullBox("tkhd", flags: 3, BoxBuilder.u32(0) + BoxBuilder.u32(0)  // creation, modification
            + BoxBuilder.u32(1) + BoxBuilder.u32(0)                                   // track_ID, reserved
            + BoxBuilder.u32(UInt32(totalDuration * UInt64(movieTimescale) / UInt64(timescale)))  // duration
            + BoxBuilder.zeros(8) + BoxBuilder.zeros(4) + BoxBuilder.zeros(4)          // reserved, layer+group, volume+reserved
            + BoxBuilder.matrix(a: a, b: b, c: c, d: d, tx: 64, ty: 48, unit: matrixUnit)  // matrix
            + BoxBuilder.u32(64 << 16) + BoxBuilder.u32(48 << 16))                    // width, height
        var trak = tkhd
        if let edits {
            var entries: [UInt8] = BoxBuilder.u32(UInt32(edits.count))
            for (duration, mediaTime, rate) in edits {
                entries += editListVersion1 ? BoxBuilder.u64(duration) + BoxBuilder.u64(UInt64(bitPattern: mediaTime))
                    : BoxBuilder.u32(UInt32(duration)) + BoxBuilder.i32(Int32(mediaTime))
                entries += BoxBuilder.i32(rate)
            }
            trak += BoxBuilder.box("edts", BoxBuilder.fullBox("elst", version: editListVersion1 ? 1 : 0, entries))
        }
        let mdhd = BoxBuilder.fullBox("mdhd", BoxBuilder.u32(0) + BoxBuilder.u32(0) + BoxBuilder.u32(timescale)
            + BoxBuilder.u32(UInt32(totalDuration)) + BoxBuilder.u16(0x55C4) + BoxBuilder.u16(0))
        let hdlr = BoxBuilder.fullBox("hdlr", BoxBuilder.fourCC(quickTimeHandlers ? "mhlr" : "\0\0\0\0")  // component type
            + BoxBuilder.fourCC(handlerType) + BoxBuilder.zeros(12) + Array("Video\0".utf8))  // subtype, reserved, name
        // QuickTime's data handler reference: component type dhlr, subtype alis, a counted (Pascal) name.
        let dataHandler = quickTimeHandlers ? BoxBuilder.fullBox("hdlr", BoxBuilder.fourCC("dhlr") + BoxBuilder.fourCC("alis")
            + BoxBuilder.zeros(12) + [11] + Array("DataHandler".utf8)) : []
        let minf = BoxBuilder.box("minf", dataHandler + BoxBuilder.box("stbl", stbl(chunkOffsets: chunkOffsets)))
        let mdia = BoxBuilder.box("mdia", mdhd + hdlr + minf)
        trak += mdia
        return BoxBuilder.box("moov", mvhd + BoxBuilder.box("trak", trak))
    }

    /// An H.264 SPS for a 64x48 picture (4x3 macroblocks, or `macroblocks` wide and high) with the given profile,
    /// progressive or not, and with a VUI that states only the colour (primaries, transfer, matrix code points and
    /// the full-range flag) when `colour` is set. Emulation prevention bytes are inserted where the bits need them.
    public static func sps(profile: UInt8 = 66, frameMBsOnly: Bool = true,
                           colour: (primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool)? = nil,
                           macroblocks: (width: Int, height: Int) = (4, 3)) -> [UInt8] {
        var bits = String(profile, radix: 2).leftPadded(8) + "00000000" + "00011110"  // profile, constraints, level 30
        bits += "1" + "1" + "011" + "010" + "0"       // sps id 0, log2_max_frame_num-4 = 0, poc type 2, 1 ref frame, no gaps
        bits += expGolomb(macroblocks.width - 1)       // pic_width_in_mbs_minus1
        // pic_height_in_map_units_minus1: map units are macroblock pairs when fields are coded.
        bits += expGolomb((frameMBsOnly ? macroblocks.height : (macroblocks.height + 1) / 2) - 1)
        bits += frameMBsOnly ? "1" : "01"              // frame_mbs_only_flag (and mb_adaptive_frame_field_flag = 1)
        bits += "1" + "0"                              // direct_8x8, no cropping
        if let colour {
            bits += "1" + "0" + "0"                    // vui_parameters_present, no aspect ratio, no overscan info
            bits += "1" + "101" + (colour.fullRange ? "1" : "0") + "1"  // video signal type: format 5, range, colour description
            for code in [colour.primaries, colour.transfer, colour.matrix] { bits += String(code, radix: 2).leftPadded(8) }
            bits += "0" + "0" + "0" + "0" + "0" + "0"  // no chroma location, timing, NAL/VCL HRD, pic_struct, restrictions
        } else {
            bits += "0"                                // no VUI
        }
        bits += "1"                                    // stop bit
        return [0x67] + BitWriter.escaped(bytes(fromBits: bits))
    }

    /// A string of "0" and "1" as bytes, the last one padded with zero bits.
    public static func bytes(fromBits bits: String) -> [UInt8] {
        var padded = bits
        while padded.count % 8 != 0 { padded += "0" }
        var bytes: [UInt8] = []
        var index = padded.startIndex
        while index < padded.endIndex {
            let next = padded.index(index, offsetBy: 8)
            bytes.append(UInt8(padded[index..<next], radix: 2) ?? 0)
            index = next
        }
        return bytes
    }

    /// `value` as ue(v): the unsigned Exp-Golomb code of H.264 and HEVC, as a string of bits.
    public static func expGolomb(_ value: Int) -> String {
        let code = String(value + 1, radix: 2)
        return String(repeating: "0", count: code.count - 1) + code
    }

    /// A visual sample entry of a 64x48 picture with `code` and the given child boxes.
    public static func visualEntry(_ code: String, children: [UInt8]) -> [UInt8] {
        BoxBuilder.box(code, BoxBuilder.zeros(6) + BoxBuilder.u16(1)            // reserved, data_reference_index
            + BoxBuilder.zeros(16)                                                  // pre_defined, reserved
            + BoxBuilder.u16(64) + BoxBuilder.u16(48)                               // width, height
            + BoxBuilder.u32(0x0048_0000) + BoxBuilder.u32(0x0048_0000)             // resolutions
            + BoxBuilder.zeros(4) + BoxBuilder.u16(1)                               // reserved, frame_count
            + BoxBuilder.zeros(32)                                                  // compressorname
            + BoxBuilder.u16(0x18) + BoxBuilder.u16(0xFFFF)                         // depth, pre_defined
            + children)
    }

    /// An avc1 entry of a 64x48 picture whose avcC holds `sps` and `pps` (either may be absent).
    public static func avc1Entry(sps: [UInt8]? = SyntheticMovie.sps(), pps: [UInt8]? = [0x68, 0xCE, 0x38, 0x80]) -> [UInt8] {
        var record: [UInt8] = [1, sps?[1] ?? 0x42, 0x00, 0x1E, 0xFF]           // version, profile, compatibility, level, length size 4
        record += [0xE0 | (sps == nil ? 0 : 1)] + (sps.map { BoxBuilder.u16(UInt16($0.count)) + $0 } ?? [])
        record += [pps == nil ? 0 : 1] + (pps.map { BoxBuilder.u16(UInt16($0.count)) + $0 } ?? [])
        return visualEntry("avc1", children: BoxBuilder.box("avcC", record))
    }

    func stbl(chunkOffsets: [UInt64]) -> [UInt8] {
        var entries: [UInt8] = []
        for _ in 0..<sampleEntryCount { entries += sampleEntry ?? Self.avc1Entry() }
        var stbl = BoxBuilder.fullBox("stsd", BoxBuilder.u32(UInt32(sampleEntryCount)) + entries)
        // stts, run-length encoded.
        var runs: [(UInt32, UInt32)] = []
        for duration in durations {
            if let last = runs.last, last.1 == duration { runs[runs.count - 1].0 += 1 } else { runs.append((1, duration)) }
        }
        stbl += BoxBuilder.fullBox("stts", BoxBuilder.u32(UInt32(runs.count)) + runs.flatMap { BoxBuilder.u32($0.0) + BoxBuilder.u32($0.1) })
        if let compositionOffsets {
            stbl += BoxBuilder.fullBox("ctts", version: compositionOffsets.contains(where: { $0 < 0 }) ? 1 : 0,
                                       BoxBuilder.u32(UInt32(compositionOffsets.count))
                                       + compositionOffsets.flatMap { BoxBuilder.u32(1) + BoxBuilder.i32($0) })
        }
        if let syncSamples {
            stbl += BoxBuilder.fullBox("stss", BoxBuilder.u32(UInt32(syncSamples.count)) + syncSamples.flatMap(BoxBuilder.u32))
        }
        if let sdtp { stbl += BoxBuilder.fullBox("sdtp", sdtp) }
        if let field = compactSampleSizeField {
            var packed: [UInt8] = []
            switch field {
            case 16: packed = sampleSizes.flatMap { BoxBuilder.u16(UInt16($0)) }
            case 8: packed = sampleSizes.map { UInt8($0) }
            default:
                for pair in stride(from: 0, to: sampleSizes.count, by: 2) {
                    let high = UInt8(sampleSizes[pair] & 0xF)
                    let low = pair + 1 < sampleSizes.count ? UInt8(sampleSizes[pair + 1] & 0xF) : 0
                    packed.append(high << 4 | low)
                }
            }
            stbl += BoxBuilder.fullBox("stz2", BoxBuilder.zeros(3) + [UInt8(field)] + BoxBuilder.u32(UInt32(sampleSizes.count)) + packed)
        } else {
            stbl += BoxBuilder.fullBox("stsz", BoxBuilder.u32(0) + BoxBuilder.u32(UInt32(sampleSizes.count)) + sampleSizes.flatMap(BoxBuilder.u32))
        }
        var stsc: [UInt8] = []
        for (chunk, perChunk) in samplesPerChunk.enumerated() {
            stsc += BoxBuilder.u32(UInt32(chunk + 1)) + BoxBuilder.u32(UInt32(perChunk)) + BoxBuilder.u32(descriptionIndexPerChunk[chunk])
        }
        stbl += BoxBuilder.fullBox("stsc", BoxBuilder.u32(UInt32(samplesPerChunk.count)) + stsc)
        if useCO64 {
            stbl += BoxBuilder.fullBox("co64", BoxBuilder.u32(UInt32(chunkOffsets.count)) + chunkOffsets.flatMap(BoxBuilder.u64))
        } else {
            stbl += BoxBuilder.fullBox("stco", BoxBuilder.u32(UInt32(chunkOffsets.count)) + chunkOffsets.flatMap { BoxBuilder.u32(UInt32($0)) })
        }
        return stbl
    }
}

extension String {
    /// The string padded on the left with zeros to `width` characters.
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
