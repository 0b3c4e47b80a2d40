/// One track of a Matroska file, as its TrackEntry describes it (RFC 9559, section 5.1.4.1).
public struct MatroskaTrack: Sendable, Equatable {
    /// What a track holds (TrackType).
    public enum Kind: Sendable, Equatable {
        case video, audio, subtitle, other(UInt64)
    }

    /// TrackNumber: what blocks name the track by.
    public var number: UInt64
    /// TrackType.
    public var kind: Kind
    /// CodecID (`V_MPEG4/ISO/AVC`, `V_VP9`, ...).
    public var codecID: String
    /// CodecPrivate (an `avcC`, `hvcC` or `av1C` record's bytes for those codecs), empty when there is none.
    public var codecPrivate: [UInt8]
    /// DefaultDuration in nanoseconds: how long each frame lasts, when constant.
    public var defaultDuration: UInt64?

    /// DefaultDuration in timestamp units of `timestampScale` nanoseconds, when the track gives one.
    public func frameDuration(timestampScale: UInt64) -> Int64? {
        defaultDuration.map { Int64(clamping: $0 / max(1, timestampScale)) }
    }
    /// CodecDelay in nanoseconds.
    public var codecDelay: UInt64
    /// FlagEnabled and FlagDefault.
    public var isEnabled: Bool
    public var isDefault: Bool
    /// The Video element, for a video track.
    public var video: MatroskaVideo?
    /// Bytes every frame of the track starts with that the muxer removed (ContentCompression with
    /// ContentCompAlgo 3, header stripping): put back before decoding.
    public var strippedHeader: [UInt8]
    /// Whether the frames are encrypted (a ContentEncoding of type 1): they cannot be decoded here.
    public var isEncrypted: Bool
    /// The ContentCompAlgo of a compression other than header stripping (zlib 0, bzlib 1, lzo1x 2), which is not
    /// read here; nil when none.
    public var compression: UInt64?

    /// Reads a TrackEntry.
    /// - Throws: `MatroskaError` `malformed` (no TrackNumber or TrackType, a value that cannot be read),
    ///   `limitExceeded` (CodecPrivate past the limit). Encrypted and compressed frames are told, not refused here.
    init(_ element: EBMLElement, limits: MatroskaLimits) throws(MatroskaError) {
        var number: UInt64?
        var type: UInt64?
        codecID = ""
        codecPrivate = []
        codecDelay = 0
        isEnabled = true
        isDefault = true
        strippedHeader = []
        isEncrypted = false
        for child in try element.children() {
            switch child.id {
            case MatroskaID.trackNumber: number = try child.unsigned()
            case MatroskaID.trackType: type = try child.unsigned()
            case MatroskaID.codecID: codecID = child.string
            case MatroskaID.codecPrivate:
                guard child.data.count <= limits.maximumCodecPrivateBytes else {
                    throw child.error(.limitExceeded, "CodecPrivate of \(child.data.count) bytes passes the limit of \(limits.maximumCodecPrivateBytes)")
                }
                codecPrivate = child.bytes
            case MatroskaID.defaultDuration: defaultDuration = try child.unsigned()
            case MatroskaID.codecDelay: codecDelay = try child.unsigned()
            case MatroskaID.flagEnabled: isEnabled = try child.unsigned() != 0
            case MatroskaID.flagDefault: isDefault = try child.unsigned() != 0
            case MatroskaID.video: video = try MatroskaVideo(child)
            case MatroskaID.contentEncodings:
                (strippedHeader, isEncrypted, compression) = try Self.encodings(child)
            default: continue
            }
        }
        guard let number, number > 0 else { throw element.error("the TrackEntry has no TrackNumber") }
        guard let type else { throw element.error("the TrackEntry has no TrackType") }
        self.number = number
        switch type {
        case 1: kind = .video
        case 2: kind = .audio
        case 0x11: kind = .subtitle
        default: kind = .other(type)
        }
        if kind == .video, video == nil { throw element.error("the video track \(number) has no Video element") }
    }

    /// What the track's ContentEncodings do to its frames: the header they strip, whether they encrypt them, and a
    /// compression other than header stripping.
    /// - Throws: `MatroskaError` `malformed` for a value that cannot be read.
    private static func encodings(_ element: EBMLElement) throws(MatroskaError) -> (stripped: [UInt8], encrypted: Bool, compression: UInt64?) {
        var stripped: [UInt8] = []
        var encrypted = false
        var other: UInt64?
        for encoding in try element.children() where encoding.id == MatroskaID.contentEncoding {
            var type: UInt64 = 0
            var scope: UInt64 = 1
            var compression: EBMLElement?
            for child in try encoding.children() {
                switch child.id {
                case MatroskaID.contentEncodingType: type = try child.unsigned()
                case MatroskaID.contentEncodingScope: scope = try child.unsigned()
                case MatroskaID.contentCompression: compression = child
                default: continue
                }
            }
            guard scope & 1 != 0 else { continue }  // the encoding is of CodecPrivate or the next one, not the frames
            guard type == 0 else {
                encrypted = true
                continue
            }
            var algorithm: UInt64 = 0
            var settings: [UInt8] = []
            for child in try compression?.children() ?? [] {
                if child.id == MatroskaID.contentCompAlgo { algorithm = try child.unsigned() }
                if child.id == MatroskaID.contentCompSettings { settings = child.bytes }
            }
            if algorithm == 3 { stripped = settings + stripped } else { other = algorithm }
        }
        return (stripped, encrypted, other)
    }
}
