/// The one table from four-character code to box type. No reflection.
enum BoxRegistry {
    /// Boxes whose payload is only child boxes.
    static let containerTypes: Set<FourCC> = [
        "moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta", "mvex",
        "moof", "traf", "mfra", "ilst", "tref", "sinf", "schi", "rinf", "covr",
    ]

    /// Leaf box types with a parser of their own.
    static let leafTypes: [FourCC: any ParsableBox.Type] = [
        FileTypeBox.fourCC: FileTypeBox.self,
        "styp": FileTypeBox.self,
        MovieHeaderBox.fourCC: MovieHeaderBox.self,
        TrackHeaderBox.fourCC: TrackHeaderBox.self,
        EditListBox.fourCC: EditListBox.self,
        MediaHeaderBox.fourCC: MediaHeaderBox.self,
        HandlerBox.fourCC: HandlerBox.self,
        SampleDescriptionBox.fourCC: SampleDescriptionBox.self,
        SampleSizeBox.fourCC: SampleSizeBox.self,
        SampleSizeBox.compactFourCC: SampleSizeBox.self,
        SampleDependencyTypeBox.fourCC: SampleDependencyTypeBox.self,
        MetaBox.fourCC: MetaBox.self,
        MetadataDataBox.fourCC: MetadataDataBox.self,
        TrackExtendsBox.fourCC: TrackExtendsBox.self,
        MovieFragmentHeaderBox.fourCC: MovieFragmentHeaderBox.self,
        TrackFragmentHeaderBox.fourCC: TrackFragmentHeaderBox.self,
        TrackFragmentBaseMediaDecodeTimeBox.fourCC: TrackFragmentBaseMediaDecodeTimeBox.self,
        TrackRunBox.fourCC: TrackRunBox.self,
        SegmentIndexBox.fourCC: SegmentIndexBox.self,
        TrackFragmentRandomAccessBox.fourCC: TrackFragmentRandomAccessBox.self,
        MediaDataBox.fourCC: MediaDataBox.self,
        "free": FreeSpaceBox.self,
        "skip": FreeSpaceBox.self,
        "wide": FreeSpaceBox.self,
        AVCConfigurationBox.fourCC: AVCConfigurationBox.self,
        HEVCConfigurationBox.fourCC: HEVCConfigurationBox.self,
        AV1ConfigurationBox.fourCC: AV1ConfigurationBox.self,
        VPCodecConfigurationBox.fourCC: VPCodecConfigurationBox.self,
        PixelAspectRatioBox.fourCC: PixelAspectRatioBox.self,
        CleanApertureBox.fourCC: CleanApertureBox.self,
        ColourInformationBox.fourCC: ColourInformationBox.self,
        BitRateBox.fourCC: BitRateBox.self,
        OriginalFormatBox.fourCC: OriginalFormatBox.self,
        SchemeTypeBox.fourCC: SchemeTypeBox.self,
        TrackReferenceTypeBox.auxiliaryFourCC: TrackReferenceTypeBox.self,
        DolbyVisionConfigurationBox.fourCC: DolbyVisionConfigurationBox.self,
        "dvvC": DolbyVisionConfigurationBox.self,
        "dvwC": DolbyVisionConfigurationBox.self,
        ElementaryStreamDescriptorBox.fourCC: ElementaryStreamDescriptorBox.self,
        H263SpecificBox.fourCC: H263SpecificBox.self,
        FieldHandlingBox.fourCC: FieldHandlingBox.self,
        "glbl": CodecPrivateBox.self,
        "dvc1": CodecPrivateBox.self,
    ].merging(EntryTableBox.Kind.allCases.flatMap(\.fourCCs).map { ($0, EntryTableBox.self) }) { first, _ in first }

    /// Parses the payload of a box of any type; unknown types become `UnknownBox`.
    static func parse(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) -> any Box {
        if containerTypes.contains(header.type) {
            if header.type == "mdia" { context.handlerType = nil }
            let children = try BoxTreeReader.readChildren(&reader, context: &context)
            return ContainerBox(header: header, children: children)
        }
        if let type = leafTypes[header.type] {
            let box = try type.init(header: header, reader: &reader, context: &context)
            try context.finish(reader)
            return box
        }
        reader.skipToEnd()
        return UnknownBox(header: header)
    }
}
