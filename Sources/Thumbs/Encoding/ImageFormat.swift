/// The file format of an encoded picture: one type for thumbnails and storyboards, and the one entry to encoding.
public enum ImageFormat: Sendable, Hashable {
    /// PNG (8-bit, or 16-bit for a `.rgb16` image: `keepsHDR` output).
    case png
    /// Baseline JPEG at a quality of 1...100.
    case jpeg(quality: Int)
    /// WebP: lossy at a quality of 0...100, or lossless.
    case webp(quality: Int, lossless: Bool)

    /// The format `name` names (`png`, `jpeg` or `jpg`, `webp`, in any case), with `quality` for JPEG and WebP and `lossless` for WebP;
    /// nil for any other name.
    public init?(named name: String, quality: Int, lossless: Bool = false) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg(quality: quality)
        case "webp": self = .webp(quality: quality, lossless: lossless)
        default: return nil
        }
    }

    /// The format's name: `png`, `jpeg` or `webp`.
    public var name: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        }
    }

    /// The encoder that writes this format.
    public var encoder: any ImageEncoder {
        switch self {
        case .png: PNGEncoder()
        case .jpeg(let quality): JPEGEncoder(quality: quality)
        case .webp(let quality, let lossless): WebPEncoder(quality: quality, lossless: lossless)
        }
    }

    /// The file of `image` in this format.
    /// - Throws: `ThumbnailError` `encodingFailed`.
    public func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        try encoder.encode(image)
    }

    /// The usual file name extension, without the dot: `png`, `jpg` or `webp`.
    public var fileExtension: String { encoder.fileExtension }

    /// The media type: `image/png`, `image/jpeg` or `image/webp`.
    public var mediaType: String { encoder.mediaType }
}
