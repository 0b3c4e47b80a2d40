import MP4Box

extension H264SequenceParameterSet {
    /// The SPS NAL unit `nal` (with its one-byte header) with max_num_ref_frames set to `count`, the rest bit for bit
    /// the same; nil when it cannot be read that far. openh264 sizes its picture pool by max_num_ref_frames: a keyframe
    /// decoded on its own needs none of those pictures, and a stream whose slices use more than the SPS keeps needs a
    /// larger pool (`OpenH264Decoder`). Not API: `SPSFuzzer` checks it through the `Fuzzing` SPI.
    @_spi(Fuzzing) public static func settingMaxNumRefFrames(of nal: [UInt8], to count: UInt32) -> [UInt8]? {
        guard let header = nal.first, let (rbsp, field, stop) = maxNumRefFramesField(of: nal) else { return nil }
        var writer = BitWriter()
        writer.append(bits: rbsp, range: 0..<field.lowerBound)
        writer.appendUE(count)
        writer.append(bits: rbsp, range: field.upperBound..<stop)
        writer.appendTrailingBits()
        return [header] + BitWriter.escaped(writer.bytes)
    }

    /// The highest level_idc openh264 2.3 reads (level 5.2): it refuses an SPS of a higher level (6.0 to 6.2, which
    /// x264 writes for 4K with 16 reference frames, or when asked) as if there were none.
    package static let highestOpenH264Level: UInt8 = 52

    /// The SPS NAL unit `nal` with a level_idc above `highestOpenH264Level` lowered to it, the rest the same; `nal`
    /// itself when its level is not above it, or when the level is not where an SPS keeps it. The level only caps
    /// what a decoder must hold; openh264 sizes its pictures from the SPS's dimensions and reference frames. The level
    /// is the NAL unit's fourth byte: after a non-zero profile_idc no emulation prevention byte comes before it.
    package static func cappingLevel(of nal: [UInt8]) -> [UInt8] {
        guard nal.count > 3, nal[0] & 0x1F == 7, nal[1] != 0, nal[3] > highestOpenH264Level else { return nal }
        var capped = nal
        capped[3] = highestOpenH264Level
        return capped
    }
}
