/// A visual sample entry: avc1/avc3, hvc1/hev1, av01, encv, ... (ISO/IEC 14496-12, 12.1.3).
///
/// Holds the coded size from the entry and the boxes inside it that matter
/// for a picture: avcC, hvcC or av1C, pasp, clap, colr, btrt, and for encrypted
/// entries sinf (frma, schm).
public struct VisualSampleEntry: Sendable {
    public let header: BoxHeader
    /// 1-based index into the data references.
    public let dataReferenceIndex: UInt16
    /// Width in pixels as the entry states it.
    public let width: UInt16
    /// Height in pixels as the entry states it.
    public let height: UInt16
    /// Bit depth field (0x18 for colour without alpha).
    public let depth: UInt16
    /// The compressor name (a Pascal string of up to 31 bytes).
    public let compressorName: String
    /// The child boxes.
    public let children: [any Box]
    /// What the first sequence parameter set in avcC or hvcC (or the sequence header OBU in av1C) says, read once
    /// when the entry is parsed: nil when the configuration holds none (parameter sets only in band, or another
    /// codec), a failure (kept, not hidden) when it cannot be read.
    public let sequenceParameters: Result<VideoParameters, MP4Error>?

    /// The H.264 decoder configuration, if any.
    public var avcConfiguration: AVCConfigurationBox? { first(AVCConfigurationBox.self) }
    /// The HEVC decoder configuration, if any.
    public var hevcConfiguration: HEVCConfigurationBox? { first(HEVCConfigurationBox.self) }
    /// The AV1 codec configuration, if any.
    public var av1Configuration: AV1ConfigurationBox? { first(AV1ConfigurationBox.self) }
    /// The VP8/VP9 codec configuration, if any.
    public var vpConfiguration: VPCodecConfigurationBox? { first(VPCodecConfigurationBox.self) }
    /// The pixel aspect ratio, if stated.
    public var pixelAspectRatio: PixelAspectRatioBox? { first(PixelAspectRatioBox.self) }
    /// The clean aperture, if stated.
    public var cleanAperture: CleanApertureBox? { first(CleanApertureBox.self) }
    /// The colour information, if stated (nclx or nclc preferred over ICC profiles).
    public var colourInformation: ColourInformationBox? {
        let all = children.compactMap { $0 as? ColourInformationBox }
        return all.first(where: { $0.matrixCoefficients != nil }) ?? all.first
    }
    /// The bit rates, if stated.
    public var bitRate: BitRateBox? { first(BitRateBox.self) }
    /// The Dolby Vision configuration (dvcC, dvvC or dvwC), if any.
    public var dolbyVisionConfiguration: DolbyVisionConfigurationBox? { first(DolbyVisionConfigurationBox.self) }
    /// The MPEG-4 elementary stream descriptor (esds) of an mp4v entry, if any.
    public var elementaryStreamDescriptor: ElementaryStreamDescriptorBox? { first(ElementaryStreamDescriptorBox.self) }
    /// The H.263 configuration (d263), if any.
    public var h263Configuration: H263SpecificBox? { first(H263SpecificBox.self) }
    /// A configuration kept whole (glbl, dvc1), if any.
    public var codecPrivate: CodecPrivateBox? { first(CodecPrivateBox.self) }
    /// QuickTime's field handling (fiel), if any.
    public var fieldHandling: FieldHandlingBox? { first(FieldHandlingBox.self) }
    /// The protection scheme for encv/resv entries.
    public var protectionInfo: ProtectionSchemeInfo? {
        guard let sinf = children.compactMap({ $0 as? ContainerBox }).first(where: { $0.header.type == "sinf" || $0.header.type == "rinf" }) else { return nil }
        return ProtectionSchemeInfo(sinf: sinf)
    }
    /// The format samples are coded in: the entry's code, or for encrypted entries the original format from frma.
    public var codingFormat: FourCC { protectionInfo?.originalFormat ?? header.type }

    /// Whether the samples that use this entry are encrypted: an encv entry, or one with a protection scheme (not resv).
    public var isProtected: Bool { header.type == "encv" || protectionInfo != nil && header.type != "resv" }

    private func first<T: Box>(_ type: T.Type) -> T? {
        for child in children {
            if let match = child as? T { return match }
        }
        return nil
    }

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        try reader.skip(6)                        // reserved
        dataReferenceIndex = try reader.readUInt16()
        try reader.skip(16)                       // pre_defined, reserved
        width = try reader.readUInt16()
        height = try reader.readUInt16()
        try reader.skip(12)                       // horizresolution, vertresolution, reserved
        _ = try reader.readUInt16()               // frame_count
        let nameBytes = try reader.readSlice(32)  // compressorname
        let nameLength = min(Int(nameBytes.first ?? 0), 31)
        compressorName = String(decoding: nameBytes.dropFirst().prefix(nameLength), as: UTF8.self)
        depth = try reader.readUInt16()
        _ = try reader.readInt16()                // pre_defined
        children = try BoxTreeReader.readChildren(&reader, context: &context)
        let (codedWidth, codedHeight) = (Int(width), Int(height))
        sequenceParameters = Self.readSequenceParameters(in: children)
            ?? children.lazy.compactMap { $0 as? VPCodecConfigurationBox }.first.map {
                .success($0.videoParameters(width: codedWidth, height: codedHeight))
            }
    }

    /// The first SPS of the first avcC, else of the first hvcC, else the sequence header OBU of the first av1C, read
    /// (a vpcC, for VP8 and VP9, says the rest).
    private static func readSequenceParameters(in children: [any Box]) -> Result<VideoParameters, MP4Error>? {
        let avcC = children.lazy.compactMap { $0 as? AVCConfigurationBox }.first
        if let sps = avcC?.sequenceParameterSets.first {
            return Result { () throws(MP4Error) in try H264SequenceParameterSet.parse(sps) }
        }
        let hvcC = children.lazy.compactMap { $0 as? HEVCConfigurationBox }.first
        if let sps = hvcC?.nalUnits(ofType: 33).first {
            return Result { () throws(MP4Error) in try HEVCSequenceParameterSet.parse(sps) }
        }
        guard let av1C = children.lazy.compactMap({ $0 as? AV1ConfigurationBox }).first else { return nil }
        do {
            guard let payload = try av1C.sequenceHeaderPayload() else { return nil }
            return Result { () throws(MP4Error) in try AV1SequenceHeader.parse(payload) }
        } catch {
            return .failure(error)
        }
    }
}
