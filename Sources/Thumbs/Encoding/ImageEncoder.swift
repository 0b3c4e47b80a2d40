/// Turns an `RGBImage` into the bytes of an image file.
public protocol ImageEncoder: Sendable {
    /// The file's media type, such as `image/png`.
    var mediaType: String { get }
    /// The usual file name extension, without the dot.
    var fileExtension: String { get }
    /// The file's bytes.
    /// - Throws: `ThumbnailError` `encodingFailed`.
    func encode(_ image: RGBImage) throws(ThumbnailError) -> [UInt8]
}
