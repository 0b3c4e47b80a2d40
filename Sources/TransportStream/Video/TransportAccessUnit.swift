/// One coded picture of the video stream, as the PES packets that carried it: its NAL units, its times and where its
/// packets are in the stream.
public struct TransportAccessUnit: Sendable, Equatable {
    /// The presentation time, in 90 kHz ticks on the stream's unwrapped timeline.
    public var presentationTime: Int64
    /// The decoding time, in 90 kHz ticks on the same timeline (the presentation time when the PES states none).
    public var decodeTime: Int64
    /// The NAL units, in order, without start codes.
    public var nalUnits: [[UInt8]]
    /// Whether decoding can start here: an H.264 IDR picture or one with a recovery point, an HEVC IRAP picture, an
    /// MPEG-2 I picture, an MPEG-4 Part 2 I-VOP.
    public var isKeyframe: Bool
    /// From the first byte of the packet that started it to the end of the last packet that carried it.
    public var byteRange: Range<UInt64>
    /// Whether no other picture refers to it (its slices say so: H.264 `nal_ref_idc` 0, HEVC sub-layer non-reference
    /// pictures in the highest sub-layer), so a decode that does not show it may leave it out.
    public var isDisposable = false

    /// The bytes of its NAL units.
    public var byteCount: Int { nalUnits.reduce(0) { $0 + $1.count } }

    /// Whether the NAL units of `units` hold slices and none of a picture another may refer to.
    static func isDisposable(_ units: [[UInt8]], codec: TransportVideoCodec, highestTemporalID: Int?) -> Bool {
        // MPEG-2 video: a B picture, which no picture refers to.
        if codec == .mpeg2 { return units.contains { MPEG2VideoHeaders.pictureCodingType($0) == 3 } }
        // MPEG-4 Part 2: a B-VOP.
        if codec == .mpeg4Visual { return units.contains { MPEG4VisualHeaders.planeCodingType($0) == 2 } }
        let slices = units.filter { $0.first.map { codec.isSlice(codec.nalUnitType($0)) } ?? false }
        return !slices.isEmpty && slices.allSatisfy { codec.isUnreferencedSlice($0, highestTemporalID: highestTemporalID) }
    }

    /// Whether the NAL units of `units` make an access unit decoding can start at.
    static func startsDecoding(_ units: [[UInt8]], codec: TransportVideoCodec) -> Bool {
        // MPEG-2 video: an I picture.
        if codec == .mpeg2 { return units.contains { MPEG2VideoHeaders.pictureCodingType($0) == 1 } }
        // MPEG-4 Part 2: an I-VOP.
        if codec == .mpeg4Visual { return units.contains { MPEG4VisualHeaders.planeCodingType($0) == 0 } }
        var hasSlice = false
        var hasRecoveryPoint = false
        for unit in units {
            guard let first = unit.first else { continue }
            let type = codec.nalUnitType(first)
            if codec.startsDecoding(type) { return true }
            if codec.isSlice(type) { hasSlice = true }
            if codec == .h264, type == 6, seiHoldsRecoveryPoint(unit) { hasRecoveryPoint = true }
        }
        return hasSlice && hasRecoveryPoint
    }

    /// Whether an H.264 SEI NAL unit holds a recovery point message (payload type 6), which marks a picture decoding
    /// can start at without an IDR (open GOPs, intra refresh).
    static func seiHoldsRecoveryPoint(_ unit: [UInt8]) -> Bool {
        // The RBSP: the header byte left out, emulation prevention bytes dropped.
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(unit.count)
        var zeros = 0
        for byte in unit.dropFirst() {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        var index = 0
        while index < rbsp.count, rbsp[index] != 0x80 {
            var type = 0
            while index < rbsp.count, rbsp[index] == 0xFF { type += 255; index += 1 }
            guard index < rbsp.count else { return false }
            type += Int(rbsp[index]); index += 1
            var size = 0
            while index < rbsp.count, rbsp[index] == 0xFF { size += 255; index += 1 }
            guard index < rbsp.count else { return false }
            size += Int(rbsp[index]); index += 1
            if type == 6 { return true }
            index += size
        }
        return false
    }
}
