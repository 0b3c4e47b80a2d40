/// `dvcC`, `dvvC` or `dvwC`: the Dolby Vision decoder configuration record (Dolby Vision Streams within the ISO Base
/// Media File Format, 3.1), beside the base layer's `hvcC`, `avcC` or `av1C`.
///
/// Its other names are `dvvC` (profiles above 7) and `dvwC` (above 10); the payload is the same. Three bytes after the version say everything a decoder of the base layer needs: the profile (5: IPTPQc2 colours in
/// a single HEVC layer, nothing else can show them right; 7: two layers; 8: one HEVC layer whose base is HDR10, SDR or
/// HLG by its compatibility ID; 9: one AVC layer, SDR; 10: AV1), the level, which layers are present and that ID.
public struct DolbyVisionConfigurationBox: ParsableBox {
    public static let fourCC: FourCC = "dvcC"
    public let header: BoxHeader
    /// dv_version_major and dv_version_minor.
    public let version: (major: UInt8, minor: UInt8)
    /// dv_profile (5, 7, 8, 9, 10, ...).
    public let profile: UInt8
    /// dv_level.
    public let level: UInt8
    /// Whether the stream carries RPU metadata, an enhancement layer, a base layer.
    public let hasRPU: Bool
    public let hasEnhancementLayer: Bool
    public let hasBaseLayer: Bool
    /// dv_bl_signal_compatibility_id: what a player without Dolby Vision sees in the base layer (0 none, 1 HDR10,
    /// 2 SDR BT.709, 4 HLG, 6 BT.2020 SDR).
    public let baseLayerCompatibility: UInt8

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        version = (try reader.readUInt8(), try reader.readUInt8())
        let fields = try reader.readUInt16()
        profile = UInt8(fields >> 9)
        level = UInt8((fields >> 3) & 0x3F)
        hasRPU = fields & 0x4 != 0
        hasEnhancementLayer = fields & 0x2 != 0
        hasBaseLayer = fields & 0x1 != 0
        baseLayerCompatibility = try reader.readUInt8() >> 4
        reader.skipToEnd()  // reserved
    }

    /// The profile as Dolby names it: the profile, and for profile 8 its compatibility ID after a dot (8.1, 8.4).
    public var profileName: String {
        profile == 8 || profile == 10 ? "\(profile).\(baseLayerCompatibility)" : "\(profile)"
    }

    /// What the base layer shows a player without Dolby Vision, by the compatibility ID (and profile 5's IPT).
    public var baseLayerDescription: String {
        if profile == 5 { return "IPTPQc2" }
        switch baseLayerCompatibility {
        case 1: return "HDR10"
        case 2: return "SDR"
        case 4: return "HLG"
        case 6: return "BT.2020 SDR"
        case 0: return "no backward-compatible"
        default: return "compatibility \(baseLayerCompatibility)"
        }
    }
}
