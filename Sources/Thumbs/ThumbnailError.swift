#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one error type of the `Thumbs` layer: what went wrong, for which input, at which time and sample.
public struct ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of failure. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The movie has no video track.
        case noVideo
        /// The video track has no samples (an init segment without fragments, a track whose chunks hold none).
        case noSamples
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
        /// An output could not be written: a batch's thumbnail, its companion folder, or its ledger.
        case writeFailed
    }

    /// The kind of failure.
    public var code: Code
    /// A short, factual, lower-case description.
    public var detail: String
    /// The path or URL of the movie, when the thrower knew it.
    public var input: String?
    /// The time asked for, when there was one: seconds, a rational time, a fraction of the duration or a frame.
    public var time: ThumbnailTime?
    /// The sample (0-based, decode order) the failure concerns, if one.
    public var sample: Int?

    /// Makes an error.
    public init(_ code: Code, _ detail: String, input: String? = nil, time: ThumbnailTime? = nil,
                sample: Int? = nil) {
        self.code = code
        self.detail = detail
        self.input = input
        self.time = time
        self.sample = sample
    }

    /// This error with the input and time filled in where they are missing.
    func located(input: String?, time: ThumbnailTime?) -> ThumbnailError {
        var located = self
        located.input = self.input ?? input
        located.time = self.time ?? time
        return located
    }

    public var description: String {
        var place: [String] = []
        if let input { place.append(input) }
        if let time { place.append("at \(time)") }
        if let sample { place.append("sample \(sample)") }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }

    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
