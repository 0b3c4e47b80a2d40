/// The video codings this reader hands on, by the `stream_type` a program map gives them, and what their NAL unit
/// headers say.
public enum TransportVideoCodec: String, Sendable, Equatable {
    /// H.264 / AVC (`stream_type` 0x1B).
    case h264
    /// H.265 / HEVC (`stream_type` 0x24, or private data 0x06 registered as `HEVC`).
    case hevc
    /// MPEG-2 video (`stream_type` 0x02), as broadcast carries it: its units are the stream's start code units (the
    /// start code value first), not NAL units. A build with the FFmpegDecoders trait decodes it.
    case mpeg2
    /// MPEG-4 Part 2 video (`stream_type` 0x10), as older cameras and IPTV carry it: start code units too. A build with
    /// the FFmpegDecoders trait decodes it.
    case mpeg4Visual = "mpeg4"

    /// The coding of an elementary stream of `streamType`, with the registration descriptor's format identifier
    /// when it has one; nil for anything else.
    init?(streamType: UInt8, registration: UInt32?) {
        switch streamType {
        case 0x1B: self = .h264
        case 0x24: self = .hevc
        case 0x02: self = .mpeg2
        case 0x10: self = .mpeg4Visual
        case 0x06 where registration == 0x4845_5643: self = .hevc  // "HEVC"
        default: return nil
        }
    }

    /// What an encrypted or otherwise undecodable video `stream_type` is, for messages; nil for one that is not video.
    static func undecodableVideo(streamType: UInt8) -> String? {
        switch streamType {
        case 0x01: "MPEG-1 video"
        case 0x1F, 0x20: "H.264 SVC/MVC sub-bitstream"
        case 0x33: "VVC"
        case 0xDB: "H.264 encrypted with SAMPLE-AES"
        case 0xEA: "VC-1"
        default: nil
        }
    }

    /// The `nal_unit_type` of a NAL unit whose first byte is `first` (of MPEG-2 video, the start code value).
    public func nalUnitType(_ first: UInt8) -> UInt8 {
        switch self {
        case .h264: first & 0x1F
        case .hevc: (first >> 1) & 0x3F
        case .mpeg2, .mpeg4Visual: first
        }
    }

    /// Whether the stream's units are start code units (MPEG-2, MPEG-4 Part 2) rather than NAL units: their zero
    /// bytes before a start code may be data, and are kept.
    public var usesStartCodeUnits: Bool { self == .mpeg2 || self == .mpeg4Visual }

    /// The NAL unit types of parameter sets, in the order a configuration lists them (H.264 SPS, PPS; HEVC VPS,
    /// SPS, PPS; MPEG-2 video's sequence header).
    public var parameterSetTypes: [UInt8] {
        switch self {
        case .h264: [7, 8]
        case .hevc: [32, 33, 34]
        case .mpeg2: [MPEG2VideoHeaders.sequenceHeader]
        case .mpeg4Visual: []
        }
    }

    /// The parameter sets the last of `units` decodes with: of each kind, the last one among them, in the order a
    /// configuration lists them (of MPEG-2 video, the last sequence header and the sequence extension after it).
    public func parameterSets<S: Sequence>(in units: S) -> [[UInt8]] where S.Element == TransportAccessUnit {
        if self == .mpeg2 {
            var sequence: [[UInt8]] = []
            for unit in units.flatMap(\.nalUnits) {
                if unit.first == MPEG2VideoHeaders.sequenceHeader {
                    sequence = [unit]
                } else if sequence.count == 1, MPEG2VideoHeaders.isSequenceExtension(unit) {
                    sequence.append(unit)
                }
            }
            return sequence
        }
        if self == .mpeg4Visual {
            // The headers before the first VOP of the last picture that has a video object layer (VOS, VO, VOL, user
            // data; not a GOV): the decoder configuration an MPEG-4 elementary stream descriptor holds.
            let carrying = units.filter { $0.nalUnits.contains { $0.first.map(MPEG4VisualHeaders.objectLayers.contains) ?? false } }
            guard let last = carrying.last else { return [] }
            return Array(last.nalUnits.prefix { $0.first != MPEG4VisualHeaders.objectPlane }.filter { $0.first != MPEG4VisualHeaders.groupOfPlanes })
        }
        var sets: [UInt8: [UInt8]] = [:]
        for unit in units {
            for nal in unit.nalUnits {
                guard let header = nal.first else { continue }
                let type = nalUnitType(header)
                if parameterSetTypes.contains(type) { sets[type] = nal }
            }
        }
        return parameterSetTypes.compactMap { sets[$0] }
    }

    /// Whether a NAL unit of `type` holds a picture from which decoding can start: an H.264 IDR slice; an HEVC IRAP
    /// picture (BLA, IDR, CRA: types 16 to 23).
    func startsDecoding(_ type: UInt8) -> Bool {
        switch self {
        case .h264: type == 5
        case .hevc: (16 ... 23).contains(type)
        case .mpeg2, .mpeg4Visual: false  // told by the picture header's coding type (`TransportAccessUnit.startsDecoding`)
        }
    }

    /// Whether a coded slice NAL unit (`unit`) belongs to a picture no other picture refers to: H.264 `nal_ref_idc`
    /// 0; HEVC a sub-layer non-reference type (TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, the reserved N types) in the
    /// highest sub-layer there is (`highestTemporalID`, from the SPS), which no higher one can refer to.
    func isUnreferencedSlice(_ unit: [UInt8], highestTemporalID: Int?) -> Bool {
        guard let first = unit.first, !usesStartCodeUnits else { return false }
        if self == .h264 { return first & 0x60 == 0 }
        let type = nalUnitType(first)
        guard type < 16, type % 2 == 0, unit.count >= 2, let highestTemporalID else { return false }
        return Int(unit[1] & 0x07) - 1 == highestTemporalID
    }

    /// The highest `TemporalId` an HEVC SPS allows (`sps_max_sub_layers_minus1`), nil for H.264 or too short a unit.
    func highestTemporalID(ofSequenceParameterSet unit: [UInt8]) -> Int? {
        guard self == .hevc, unit.count >= 3 else { return nil }
        return Int(unit[2] >> 1 & 0x07)
    }

    /// Whether a NAL unit of `type` is a coded slice.
    func isSlice(_ type: UInt8) -> Bool {
        switch self {
        case .h264: (1 ... 5).contains(type)
        case .hevc: type <= 31
        case .mpeg2: (0x01 ... 0xAF).contains(type)
        case .mpeg4Visual: type == MPEG4VisualHeaders.objectPlane
        }
    }
}
