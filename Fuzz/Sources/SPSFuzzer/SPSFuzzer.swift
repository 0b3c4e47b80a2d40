import MP4Box

/// libFuzzer entry point for the SPS parsers: an even first byte picks H.264, an odd one HEVC;
/// the remaining bytes are the NAL unit (with its NAL header).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let nal = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let parameters = data[0] & 1 == 0
        ? try? H264SequenceParameterSet.parse(nal)
        : try? HEVCSequenceParameterSet.parse(nal)
    if let parameters { blackHole(parameters.width &+ parameters.height) }
    return 0
}

@inline(never)
func blackHole(_ value: Int) {
    if value == 0x5eed_f00d { print("") }
}
