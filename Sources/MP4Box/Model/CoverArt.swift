/// Cover art stored in `moov/udta/meta/ilst/covr`.
public struct CoverArt: Sendable {
    /// The image format.
    public enum Format: String, Sendable {
        case jpeg, png, bmp, unknown
    }

    /// The image format, from the data box's type indicator (13 JPEG, 14 PNG, 27 BMP).
    public let format: Format
    /// The encoded image bytes.
    public let data: ArraySlice<UInt8>
    /// The file offset of the first image byte.
    public let fileOffset: UInt64

    init(box: MetadataDataBox) {
        switch box.dataType {
        case 13: format = .jpeg
        case 14: format = .png
        case 27: format = .bmp
        default:
            if box.value.starts(with: [0xFF, 0xD8]) {
                format = .jpeg
            } else if box.value.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                format = .png
            } else {
                format = .unknown
            }
        }
        data = box.value
        fileOffset = box.valueOffset
    }

    /// The cover art of a movie box, in order.
    static func all(in moov: ContainerBox, limits: ParseLimits) -> [CoverArt] {
        guard let meta = moov.container("udta")?.first(MetaBox.self), let ilst = meta.itemList else { return [] }
        return ilst.containers("covr").flatMap { covr in
            covr.all(MetadataDataBox.self).filter { $0.value.count <= limits.maximumArtworkSize }.map(CoverArt.init(box:))
        }
    }
}
