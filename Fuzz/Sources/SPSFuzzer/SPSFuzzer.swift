@_spi(Fuzzing) import FrameDecode
import MP4Box

/// libFuzzer entry point for the parameter-set readers, picked by the first byte modulo 3: 0 the H.264 SPS, 1 the
/// HEVC SPS (the rest a NAL unit with its header), 2 AV1's OBU framing and the sequence header of every sequence
/// header OBU among them (the rest a run of OBUs, as a sample or av1C's configOBUs hold them).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        let parsed = try? H264SequenceParameterSet.parse(bytes)
        if let parsed { blackHole(parsed.width &+ parsed.height) }
        checkRewrite(bytes, parsed: parsed)
    case 1:
        if let parameters = try? HEVCSequenceParameterSet.parse(bytes) { blackHole(parameters.width &+ parameters.height) }
    default:
        guard let units = try? AV1OBU.units(in: bytes, name: "fuzz") else { return 0 }
        for unit in units {
            // Every range the reader gives lies inside the bytes, in order: a broken one is a finding.
            precondition(unit.range.lowerBound >= 0 && unit.payload.upperBound <= bytes.count
                         && unit.range.lowerBound < unit.payload.lowerBound && unit.payload.upperBound == unit.range.upperBound)
            if unit.type == AV1OBU.sequenceHeaderType, let parameters = try? AV1SequenceHeader.parse(bytes[unit.payload]) {
                blackHole(parameters.width &+ parameters.height)
            }
        }
    }
    return 0
}

/// The SPS a decoder of keyframes alone is given (`settingMaxNumRefFrames(of:to: 0)`, FrameDecode's openh264 workaround): where the rewrite is made, the
/// field reads back as 0, and what the SPS says of the picture is unchanged whenever both parse. (The VUI is left out:
/// it is read leniently, and a VUI that runs past the stop bit reads as far as the trailing zero bits go, which the
/// rewrite may shift.)
func checkRewrite(_ bytes: [UInt8], parsed: VideoParameters?) {
    guard let rewritten = H264SequenceParameterSet.settingMaxNumRefFrames(of: bytes, to: 0) else { return }
    precondition(H264SequenceParameterSet.maxNumRefFrames(of: rewritten) == 0, "the rewritten field does not read 0")
    guard let parsed, let again = try? H264SequenceParameterSet.parse(rewritten) else { return }
    let before = [parsed.codedWidth, parsed.codedHeight, parsed.cropLeft, parsed.cropRight, parsed.cropTop, parsed.cropBottom,
                  parsed.chromaFormat, parsed.bitDepthLuma, parsed.bitDepthChroma, parsed.profile, parsed.level]
    let after = [again.codedWidth, again.codedHeight, again.cropLeft, again.cropRight, again.cropTop, again.cropBottom,
                 again.chromaFormat, again.bitDepthLuma, again.bitDepthChroma, again.profile, again.level]
    precondition(before == after && parsed.isInterlaced == again.isInterlaced && parsed.isMBAFF == again.isMBAFF,
                 "the rewrite changed the picture: \(before) -> \(after)")
}

@inline(never)
func blackHole(_ value: Int) {
    if value == 0x5eed_f00d { print("") }
}
