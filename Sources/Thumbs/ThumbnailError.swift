/// The one error type of the `Thumbs` layer.
public struct ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Equatable {
        /// The movie has no video track with samples.
        case noVideo
        /// No sync sample precedes the frame.
        case noKeyframe
        /// A sample lies beyond the end of the file, or a read came back short.
        case sampleOutOfRange
        /// The decoder gave no picture for the planned frame.
        case noFrame
        /// An option is out of range.
        case invalidOption
        /// A decoded frame's planes do not match its stated size, bit depth or chroma format.
        case invalidFrame
        /// An image encoder (libpng, libjpeg-turbo) failed, or cannot hold the image's pixel format.
        case encodingFailed
        /// Bytes given to an image decoder are not an image it can read, or the image is larger than allowed.
        case invalidImage
        /// The picture needs more samples or bytes than `ThumbnailLimits` allow.
        case limitExceeded
    }

    /// The kind of failure.
    public var code: Code
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail }
}
