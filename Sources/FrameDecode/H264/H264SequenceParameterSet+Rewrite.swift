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
}
