/// The file format of an encoded picture: one type for thumbnails and storyboards, and the one entry to encoding.
public enum ImageFormat: Sendable, Hashable {
    /// PNG (8-bit, or 16-bit for a `.rgb16` image: `keepsHDR` output).
    case png
    /// Baseline JPEG at a quality of 1...100.
    case jpeg(quality: Int)
    /// WebP: lossy at a quality of 0...100, or lossless.
    case webp(quality: Int, lossless: Bool)
    /// AVIF: lossy at a quality of 0...100, or lossless; a `keepsHDR` picture as 10-bit HDR.
    case avif(quality: Int, lossless: Bool)

    /// Whether the format keeps an `.rgba8` image's alpha (PNG, WebP, AVIF; JPEG drops it).
    public var holdsAlpha: Bool {
        if case .jpeg = self { false } else { true }
    }

    /// The quality JPEG and WebP are written at when none is asked for.
    public static let defaultQuality = 85
    /// The quality AVIF is written at when none is asked for: at 72, libavif's quantizers give about the PSNR WebP
    /// gives at 85, in fewer bytes (Benchmarks/README.md, "AVIF beside WebP").
    public static let defaultAVIFQuality = 72

    /// The format `name` names (`png`, `jpeg` or `jpg`, `webp`, `avif`, in any case), with `quality` for JPEG, WebP
    /// and AVIF (nil: `defaultQuality`, `defaultAVIFQuality`) and `lossless` for WebP and AVIF; nil for any other name.
    public init?(named name: String, quality: Int? = nil, lossless: Bool = false) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg(quality: quality ?? Self.defaultQuality)
        case "webp": self = .webp(quality: quality ?? Self.defaultQuality, lossless: lossless)
        case "avif": self = .avif(quality: quality ?? Self.defaultAVIFQuality, lossless: lossless)
        default: return nil
        }
    }

    /// The format's name: `png`, `jpeg`, `webp` or `avif`.
    public var name: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    /// The encoder that writes this format.
    public var encoder: any ImageEncoder {
        switch self {
        case .png: PNGEncoder()
        case .jpeg(let quality): JPEGEncoder(quality: quality)
        case .webp(let quality, let lossless): QualityOrLosslessEncoder(library: .libwebp, quality: quality, lossless: lossless)
        case .avif(let quality, let lossless): QualityOrLosslessEncoder(library: .libavif, quality: quality, lossless: lossless)
        }
    }

    /// The file of `image` in this format.
    /// - Throws: `ThumbnailError` `encodingFailed`.
    public func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8] {
        try encoder.encode(image)
    }

    /// The usual file name extension, without the dot: `png`, `jpg`, `webp` or `avif`.
    public var fileExtension: String { encoder.fileExtension }

    /// The media type: `image/png`, `image/jpeg`, `image/webp` or `image/avif`.
    public var mediaType: String { encoder.mediaType }
}
