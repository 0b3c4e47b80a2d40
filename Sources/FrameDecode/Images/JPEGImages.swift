/// The JPEG images in a Motion JPEG sample, found by walking their markers: one for a progressive frame, two for an
/// interlaced one (each field a JPEG image of its own, one after the other, as `mjpa`, `AVDJ` and many cameras store
/// them).
///
/// Markers are walked rather than searched for: the bytes FF D9 may stand inside a segment (an Exif thumbnail), but
/// between markers only in the entropy-coded data, where every FF is followed by 00 or a restart marker.
enum JPEGImages {
    /// At most this many images are taken from one sample: a frame's two fields.
    static let maximumImages = 2

    /// The ranges of `bytes` that hold whole JPEG images (SOI to EOI), in order, at most `maximumImages`; padding
    /// between them (zeros, FF fill) is skipped. An image whose end is missing runs to the end of the bytes.
    static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        var images: [Range<Int>] = []
        var position = 0
        while images.count < maximumImages, let start = nextStart(in: bytes, from: position) {
            let end = imageEnd(in: bytes, from: start + 2)
            images.append(start..<end)
            position = end
        }
        return images
    }

    /// The index of the next SOI (FF D8) at or after `position`, skipping zeros and FF fill; nil at anything else.
    private static func nextStart(in bytes: [UInt8], from position: Int) -> Int? {
        var index = position
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] == 0xD8 { return index }
            guard bytes[index] == 0 || bytes[index] == 0xFF else { return nil }
            index += 1
        }
        return nil
    }

    /// The index just past the EOI of the image whose markers start at `position` (just after its SOI), or the end of
    /// the bytes when there is none.
    private static func imageEnd(in bytes: [UInt8], from position: Int) -> Int {
        var index = position
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }  // entropy-coded data, or stray bytes
            let marker = bytes[index + 1]
            switch marker {
            case 0xD9:
                return index + 2
            case 0xFF, 0x00, 0xD0...0xD7, 0x01:
                index += marker == 0xFF ? 1 : 2  // fill, stuffing, restart markers, TEM: no length
            default:
                guard index + 3 < bytes.count else { return bytes.count }
                let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                index += 2 + max(length, 2)  // the segment; after SOS the entropy-coded data follows
            }
        }
        return bytes.count
    }
}
