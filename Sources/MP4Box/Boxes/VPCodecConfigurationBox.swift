/// `vpcC`: the VP8/VP9 codec configuration (VP Codec ISO Media File Format Binding, 2.2), a full box of version 1:
/// profile, level, bit depth, chroma subsampling, range and the colour code points; codec initialisation data is
/// empty for VP8 and VP9.
public struct VPCodecConfigurationBox: ParsableFullBox {
    public static let fourCC: FourCC = "vpcC"
    static var versions: ClosedRange<UInt8> { 1...1 }
    public let header: BoxHeader
    /// The profile (VP9: 0 to 3).
    public let profile: UInt8
    /// The level.
    public let level: UInt8
    /// Bits per sample: 8, 10 or 12.
    public let bitDepth: Int
    /// chromaSubsampling: 0 and 1 4:2:0 (vertical or colocated siting), 2 4:2:2, 3 4:4:4.
    public let chromaSubsampling: UInt8
    /// What the box says of colour (ISO/IEC 23091-2 code points and the range flag).
    public let colour: ColourDescription

    init(_ box: FullBoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        header = box.header
        profile = try reader.readUInt8()
        level = try reader.readUInt8()
        let packed = try reader.readUInt8()
        bitDepth = Int(packed >> 4)
        chromaSubsampling = packed >> 1 & 0x7
        let fullRange = packed & 1 != 0
        let primaries = Int(try reader.readUInt8())
        let transfer = Int(try reader.readUInt8())
        let matrix = Int(try reader.readUInt8())
        colour = ColourDescription(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: fullRange)
        guard [8, 10, 12].contains(bitDepth) else { throw reader.error(.malformed, "vpcC bit depth \(bitDepth)") }
        reader.skipToEnd()  // codecInitializationData: empty for VP8 and VP9
    }

    /// What the box and the sample entry's size say of the pictures.
    func videoParameters(width: Int, height: Int) -> VideoParameters {
        VideoParameters(codedWidth: width, codedHeight: height, cropLeft: 0, cropRight: 0, cropTop: 0, cropBottom: 0,
                        chromaFormat: chromaSubsampling <= 1 ? 1 : Int(chromaSubsampling), bitDepthLuma: bitDepth,
                        bitDepthChroma: bitDepth, isInterlaced: false, isMBAFF: false, sampleAspectRatio: nil, colour: colour,
                        profile: Int(profile), level: Int(level))
    }

    /// The payload of a version-1 box for `parameters` (what a Matroska track's VP8 or VP9 frames are written with).
    public static func payload(profile: UInt8, bitDepth: Int, chromaSubsampling: UInt8, colour: ColourDescription) -> [UInt8] {
        [1, 0, 0, 0, profile, 0, UInt8(bitDepth & 0xF) << 4 | (chromaSubsampling & 7) << 1 | (colour.fullRange ? 1 : 0),
         UInt8(clamping: colour.primaries), UInt8(clamping: colour.transfer), UInt8(clamping: colour.matrix), 0, 0]
    }
}
