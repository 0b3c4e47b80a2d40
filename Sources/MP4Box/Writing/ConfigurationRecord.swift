/// Writes the decoder configuration records of the sample entries `VideoMovieWriter` writes: `avcC`
/// (ISO/IEC 14496-15, 5.3.3.1) and `hvcC` (8.3.3.1), from the parameter sets and what their SPS says.
enum ConfigurationRecord {
    /// An `avcC` body: profile, compatibility and level from the SPS, 4-byte lengths, the SPSs and PPSs, and for the
    /// High profiles the chroma format and bit depths.
    static func writeAVC(_ writer: inout BoxWriter, _ track: ElementaryVideoTrack, parameters: VideoParameters) {
        let sequenceSets = track.parameterSets.filter { $0.first.map(track.nalUnitType) == 7 }.prefix(31)
        let pictureSets = track.parameterSets.filter { $0.first.map(track.nalUnitType) == 8 }.prefix(255)
        let sps = sequenceSets.first ?? []
        writer.uint8(1)
        writer.uint8(sps.count > 1 ? sps[1] : 0)
        writer.uint8(sps.count > 2 ? sps[2] : 0)
        writer.uint8(sps.count > 3 ? sps[3] : 0)
        writer.uint8(0xFC | UInt8(VideoMovieWriter.lengthSize - 1))
        writer.uint8(0xE0 | UInt8(sequenceSets.count))
        for set in sequenceSets { writeParameterSet(&writer, set) }
        writer.uint8(UInt8(pictureSets.count))
        for set in pictureSets { writeParameterSet(&writer, set) }
        if [100, 110, 122, 144].contains(sps.count > 1 ? sps[1] : 0) {
            writer.uint8(0xFC | UInt8(parameters.chromaFormat & 0x3))
            writer.uint8(0xF8 | UInt8((parameters.bitDepthLuma - 8) & 0x7))
            writer.uint8(0xF8 | UInt8((parameters.bitDepthChroma - 8) & 0x7))
            writer.uint8(0)
        }
    }

    /// An `hvcC` body: the general profile, tier and level fields copied from the SPS's profile_tier_level, the chroma
    /// format and bit depths, 4-byte lengths, then one array per parameter set type (VPS, SPS, PPS).
    static func writeHEVC(_ writer: inout BoxWriter, _ track: ElementaryVideoTrack, parameters: VideoParameters) {
        let sps = track.parameterSet(ofType: 33) ?? []
        // The SPS's RBSP after its 2-byte header: one byte (VPS id, sub-layers, nesting), then the 12 bytes of the
        // general profile, tier and level.
        let rbsp = BitReader(nal: sps, headerBytes: 2, name: "SPS").rbsp
        let general = rbsp.count >= 13 ? Array(rbsp[1 ..< 13]) : [UInt8](repeating: 0, count: 12)
        let subLayers = rbsp.first.map { ($0 >> 1) & 0x7 } ?? 0
        let nesting = rbsp.first.map { $0 & 0x1 } ?? 0
        writer.uint8(1)
        writer.append(general)
        writer.uint16(0xF000)
        writer.uint8(0xFC)
        writer.uint8(0xFC | UInt8(parameters.chromaFormat & 0x3))
        writer.uint8(0xF8 | UInt8((parameters.bitDepthLuma - 8) & 0x7))
        writer.uint8(0xF8 | UInt8((parameters.bitDepthChroma - 8) & 0x7))
        writer.uint16(0)
        writer.uint8((subLayers + 1) << 3 | nesting << 2 | UInt8(VideoMovieWriter.lengthSize - 1))
        let arrays = ([32, 33, 34] as [UInt8]).map { type in
            (type, track.parameterSets.filter { $0.first.map(track.nalUnitType) == type }.prefix(0xFFFF))
        }.filter { !$0.1.isEmpty }
        writer.uint8(UInt8(arrays.count))
        for (type, sets) in arrays {
            writer.uint8(type)
            writer.uint16(UInt16(sets.count))
            for set in sets { writeParameterSet(&writer, set) }
        }
    }

    private static func writeParameterSet(_ writer: inout BoxWriter, _ set: [UInt8]) {
        let bytes = set.prefix(0xFFFF)
        writer.uint16(UInt16(bytes.count))
        writer.append(bytes)
    }
}
