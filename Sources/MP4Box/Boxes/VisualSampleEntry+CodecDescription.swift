extension VisualSampleEntry {
    /// The entry's codec in words: its code's name, with the profile, level, chroma format and bit depth its
    /// configuration record (avcC, hvcC, av1C, vpcC, d263, esds) states, whether it codes fields, and its Dolby Vision
    /// configuration.
    public var codecDescription: VideoCodecDescription {
        let code = codingFormat
        let named = VideoCodecDescription.named(codingFormat: code)
        var description = VideoCodecDescription(family: named.family, codingFormat: code, name: named.name)
        let parameters: VideoParameters? = if case .success(let parameters) = sequenceParameters { parameters } else { nil }
        switch named.family {
        case .h264:
            if let avcC = avcConfiguration {
                description.profile = Self.h264Profile(avcC.profileIndication, constraints: avcC.profileCompatibility)
                    + ", level " + Self.level(Int(avcC.levelIndication), per: 10)
            }
            description.format = VideoCodecDescription.format(chroma: avcConfiguration?.chromaFormat.map(Int.init) ?? 1,
                                                              bitDepth: avcConfiguration?.bitDepthLuma.map(Int.init) ?? 8)
            if let parameters { description = description.stating(parameters) }
        case .hevc:
            if let hvcC = hevcConfiguration {
                description.profile = Self.hevcProfile(hvcC) + ", " + (hvcC.generalTierFlag ? "High" : "Main")
                    + " tier, level " + Self.level(Int(hvcC.generalLevelIDC), per: 30)
                description.format = VideoCodecDescription.format(chroma: Int(hvcC.chromaFormat), bitDepth: Int(hvcC.bitDepthLuma))
            }
        case .av1:
            if let av1C = av1Configuration {
                let level = Int(av1C.level)
                description.profile = (["Main", "High", "Professional"].dropFirst(Int(av1C.profile)).first ?? "profile \(av1C.profile)")
                    + ", level \(2 + level >> 2).\(level & 3)"
                let chroma = av1C.monochrome ? 0 : av1C.chromaSubsampling.x ? (av1C.chromaSubsampling.y ? 1 : 2) : 3
                description.format = VideoCodecDescription.format(chroma: chroma, bitDepth: av1C.bitDepth)
            }
        case .vp9:
            if let vpcC = vpConfiguration {
                description.profile = "profile \(vpcC.profile)"
                let chroma = vpcC.chromaSubsampling <= 1 ? 1 : Int(vpcC.chromaSubsampling)
                description.format = VideoCodecDescription.format(chroma: chroma, bitDepth: vpcC.bitDepth)
            }
        case .h263:
            if let d263 = h263Configuration {
                description.profile = "profile \(d263.profile), level \(d263.level)"
            }
        case .mpeg4Visual:
            if let esds = elementaryStreamDescriptor { Self.describeMPEG4(esds, into: &description) }
        default:
            break
        }
        if let fields = fieldHandling, fields.fieldCount == 2 { description.isInterlaced = true }
        if let dolbyVision = dolbyVisionConfiguration {
            description.dolbyVision = VideoCodecDescription.DolbyVision(
                profile: dolbyVision.profileName, profileNumber: Int(dolbyVision.profile),
                baseLayerCompatibility: Int(dolbyVision.baseLayerCompatibility), baseLayer: dolbyVision.baseLayerDescription)
        }
        return description
    }

    /// An `mp4v` entry's stream by its object type: MPEG-4 Visual with the profile and level its VisualObjectSequence
    /// header gives, MPEG-2 Video with the profile its object type names, MPEG-1 Video, JPEG.
    private static func describeMPEG4(_ esds: ElementaryStreamDescriptorBox, into description: inout VideoCodecDescription) {
        switch esds.objectTypeIndication {
        case .some(0x60...0x65):
            let profiles = ["Simple", "Main", "SNR", "Spatial", "High", "4:2:2"]
            description.family = .mpeg2Video
            description.name = "MPEG-2 Video"
            description.profile = profiles[Int((esds.objectTypeIndication ?? 0x60) - 0x60)]
        case 0x6A:
            (description.family, description.name) = (.mpeg1Video, "MPEG-1 Video")
        case 0x6C:
            (description.family, description.name) = (.motionJPEG, "Motion JPEG")
        default:
            let info = esds.decoderSpecificInfo
            guard info.count > 4, info.starts(with: [0, 0, 1, 0xB0]) else { return }
            description.profile = mpeg4VisualProfile(info[4])
        }
    }

    /// profile_and_level_indication of a VisualObjectSequence (ISO/IEC 14496-2, Table G-1), for the usual profiles.
    static func mpeg4VisualProfile(_ indication: UInt8) -> String {
        switch indication {
        case 0x08: return "Simple, level 0"
        case 0xF7: return "Advanced Simple, level 3b"
        case 0xF0...0xF5: return "Advanced Simple, level \(indication & 0x0F)"
        default: break
        }
        let names: [UInt8: String] = [0x0: "Simple", 0x1: "Simple Scalable", 0x2: "Core", 0x3: "Main", 0x4: "N-bit",
                                      0x9: "Advanced Real Time Simple", 0xA: "Core Scalable", 0xB: "Advanced Coding Efficiency",
                                      0xC: "Advanced Core", 0xD: "Advanced Scalable Texture"]
        guard let name = names[indication >> 4] else { return "profile and level 0x" + String(indication, radix: 16) }
        return "\(name), level \(indication & 0x0F)"
    }

    /// H.264's profile_idc with its constraint flags (Rec. ITU-T H.264, A.2).
    static func h264Profile(_ profile: UInt8, constraints: UInt8) -> String {
        let (set1, set3, set4, set5) = (constraints & 0x40 != 0, constraints & 0x10 != 0, constraints & 0x08 != 0, constraints & 0x04 != 0)
        switch profile {
        case 66: return set1 ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100: return set4 && set5 ? "Constrained High" : set4 ? "Progressive High" : "High"
        case 110: return set3 ? "High 10 Intra" : set4 ? "Progressive High 10" : "High 10"
        case 122: return set3 ? "High 4:2:2 Intra" : "High 4:2:2"
        case 244: return set3 ? "High 4:4:4 Intra" : "High 4:4:4 Predictive"
        case 44: return "CAVLC 4:4:4 Intra"
        case 83: return "Scalable Baseline"
        case 86: return "Scalable High"
        case 118: return "Multiview High"
        case 128: return "Stereo High"
        default: return "profile \(profile)"
        }
    }

    /// HEVC's general_profile_idc (Rec. ITU-T H.265, A.3); the range extensions named by chroma format and bit depth.
    static func hevcProfile(_ hvcC: HEVCConfigurationBox) -> String {
        switch hvcC.generalProfileIDC {
        case 1: return "Main"
        case 2: return "Main 10"
        case 3: return "Main Still Picture"
        case 4:
            let chroma = [0: "Monochrome", 2: "Main 4:2:2", 3: "Main 4:4:4"][Int(hvcC.chromaFormat)] ?? "Main"
            return hvcC.bitDepthLuma > 8 ? "\(chroma) \(hvcC.bitDepthLuma)" : chroma
        case 5: return "High Throughput 4:4:4"
        case 6: return "Multiview Main"
        case 7: return "Scalable Main"
        case 9: return "Screen Content Coding"
        default: return "profile \(hvcC.generalProfileIDC)"
        }
    }

    /// A level number stored as `per` times the level (H.264 10, HEVC 30): 4.1, 5.
    static func level(_ value: Int, per: Int) -> String {
        let tenths = value * 10 / per
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
