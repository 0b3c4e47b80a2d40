/// The start of the video usability information of an H.264 or HEVC sequence parameter set (Rec. ITU-T H.264 E.1.1,
/// H.265 E.2.1, the same syntax in both): the sample aspect ratio, overscan, and the video signal type with the
/// colour description. The fields after it (timing, HRD, bitstream restrictions) are not read.
enum VideoUsabilityInformation {
    /// Sample aspect ratios for aspect_ratio_idc 1...16 (Table E-1).
    static let sampleAspectRatios: [(Int, Int)] = [
        (1, 1), (12, 11), (10, 11), (16, 11), (40, 33), (24, 11), (20, 11), (32, 11),
        (80, 33), (18, 11), (15, 11), (64, 33), (160, 99), (4, 3), (3, 2), (2, 1),
    ]

    /// Reads the VUI's aspect ratio and video signal type (range and colour description) into `parameters`.
    static func read(_ bits: inout BitReader, into parameters: inout VideoParameters) throws(MP4Error) {
        if try bits.flag() {  // aspect_ratio_info_present_flag
            let idc = Int(try bits.bits(8))
            if idc == 255 {
                let width = Int(try bits.bits(16)), height = Int(try bits.bits(16))
                if width > 0 && height > 0 { parameters.sampleAspectRatio = (width, height) }
            } else if idc >= 1 && idc <= sampleAspectRatios.count {
                parameters.sampleAspectRatio = sampleAspectRatios[idc - 1]
            }
        }
        if try bits.flag() { try bits.skip(1) }  // overscan
        if try bits.flag() {  // video_signal_type_present_flag
            try bits.skip(3)  // video_format
            let fullRange = try bits.flag()
            if try bits.flag() {
                parameters.colour = ColourDescription(primaries: Int(try bits.bits(8)), transfer: Int(try bits.bits(8)),
                                                      matrix: Int(try bits.bits(8)), fullRange: fullRange)
            } else {
                parameters.colour = ColourDescription(primaries: 2, transfer: 2, matrix: 2, fullRange: fullRange)
            }
        }
    }
}
