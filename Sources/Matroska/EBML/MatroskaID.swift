/// The Element IDs this reader knows (RFC 8794 for EBML's, RFC 9559 for Matroska's), with the length marker kept.
public enum MatroskaID {
    public static let ebml: UInt32 = 0x1A45_DFA3
    public static let docType: UInt32 = 0x4282
    public static let docTypeReadVersion: UInt32 = 0x4285
    public static let segment: UInt32 = 0x1853_8067
    public static let seekHead: UInt32 = 0x114D_9B74
    public static let seek: UInt32 = 0x4DBB
    public static let seekID: UInt32 = 0x53AB
    public static let seekPosition: UInt32 = 0x53AC
    public static let info: UInt32 = 0x1549_A966
    public static let timestampScale: UInt32 = 0x2AD7B1
    public static let duration: UInt32 = 0x4489
    public static let tracks: UInt32 = 0x1654_AE6B
    public static let trackEntry: UInt32 = 0xAE
    public static let trackNumber: UInt32 = 0xD7
    public static let trackType: UInt32 = 0x83
    public static let flagEnabled: UInt32 = 0xB9
    public static let flagDefault: UInt32 = 0x88
    public static let codecID: UInt32 = 0x86
    public static let codecPrivate: UInt32 = 0x63A2
    public static let defaultDuration: UInt32 = 0x23E383
    public static let codecDelay: UInt32 = 0x56AA
    public static let video: UInt32 = 0xE0
    public static let pixelWidth: UInt32 = 0xB0
    public static let pixelHeight: UInt32 = 0xBA
    public static let pixelCropBottom: UInt32 = 0x54AA
    public static let pixelCropTop: UInt32 = 0x54BB
    public static let pixelCropLeft: UInt32 = 0x54CC
    public static let pixelCropRight: UInt32 = 0x54DD
    public static let displayWidth: UInt32 = 0x54B0
    public static let displayHeight: UInt32 = 0x54BA
    public static let displayUnit: UInt32 = 0x54B2
    public static let flagInterlaced: UInt32 = 0x9A
    public static let stereoMode: UInt32 = 0x53B8
    public static let alphaMode: UInt32 = 0x53C0
    public static let colour: UInt32 = 0x55B0
    public static let matrixCoefficients: UInt32 = 0x55B1
    public static let bitsPerChannel: UInt32 = 0x55B2
    public static let range: UInt32 = 0x55B9
    public static let transferCharacteristics: UInt32 = 0x55BA
    public static let primaries: UInt32 = 0x55BB
    public static let contentEncodings: UInt32 = 0x6D80
    public static let contentEncoding: UInt32 = 0x6240
    public static let contentEncodingScope: UInt32 = 0x5032
    public static let contentEncodingType: UInt32 = 0x5033
    public static let contentCompression: UInt32 = 0x5034
    public static let contentCompAlgo: UInt32 = 0x4254
    public static let contentCompSettings: UInt32 = 0x4255
    public static let cues: UInt32 = 0x1C53_BB6B
    public static let cuePoint: UInt32 = 0xBB
    public static let cueTime: UInt32 = 0xB3
    public static let cueTrackPositions: UInt32 = 0xB7
    public static let cueTrack: UInt32 = 0xF7
    public static let cueClusterPosition: UInt32 = 0xF1
    public static let cueRelativePosition: UInt32 = 0xF0
    public static let cluster: UInt32 = 0x1F43_B675
    public static let timestamp: UInt32 = 0xE7
    public static let simpleBlock: UInt32 = 0xA3
    public static let blockGroup: UInt32 = 0xA0
    public static let block: UInt32 = 0xA1
    public static let referenceBlock: UInt32 = 0xFB
    public static let blockAdditions: UInt32 = 0x75A1
    public static let blockMore: UInt32 = 0xA6
    public static let blockAddID: UInt32 = 0xEE
    public static let blockAdditional: UInt32 = 0xA5
    public static let void: UInt32 = 0xEC
    public static let crc32: UInt32 = 0xBF

    /// The elements that may follow a Cluster at the Segment's level: where a Cluster of unknown size ends.
    static let segmentChildren: Set<UInt32> = [
        seekHead, info, tracks, cues, cluster, 0x1941_A469 /* Attachments */, 0x1043_A770 /* Chapters */,
        0x1254_C367 /* Tags */, segment, ebml,
    ]

    private static let names: [UInt32: String] = [
        ebml: "EBML", docType: "DocType", segment: "Segment", seekHead: "SeekHead", seek: "Seek", info: "Info",
        tracks: "Tracks", trackEntry: "TrackEntry", video: "Video", colour: "Colour", contentEncodings: "ContentEncodings",
        contentEncoding: "ContentEncoding", contentCompression: "ContentCompression", cues: "Cues", cuePoint: "CuePoint",
        cueTrackPositions: "CueTrackPositions", cluster: "Cluster", simpleBlock: "SimpleBlock", blockGroup: "BlockGroup",
        block: "Block", codecPrivate: "CodecPrivate", codecID: "CodecID", timestamp: "Timestamp",
    ]

    /// The element's name where this reader knows it, else its ID in hexadecimal.
    public static func name(_ id: UInt32) -> String {
        names[id] ?? "0x" + String(id, radix: 16, uppercase: true)
    }
}
