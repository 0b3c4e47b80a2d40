#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one error type of the `Storyboards` layer: options that cannot make a storyboard, a track that cannot give
/// one, or a thumbnail track (WebVTT, grid template) that cannot be read. Errors from below (`ThumbnailError` for a
/// movie without video, `MP4Error`, `DecodeError`, the source's) keep their own types.
public struct StoryboardError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of failure. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The text does not start with the `WEBVTT` signature.
        case notWebVTT
        /// A cue's timing line is not `start --> end` with two WebVTT timestamps, or its end is not after its start.
        case malformedTiming
        /// A cue has no image reference.
        case missingImage
        /// A `#xywh=` (or `#x,y,w,h`) region is not four non-negative integers with a positive width and height.
        case malformedRegion
        /// A grid template's sizes, interval or file template cannot address tiles.
        case invalidGrid
        /// An option is out of range, or the options ask for more cues or a larger sheet than allowed.
        case invalidOption
        /// The video track has no samples.
        case noSamples
        /// The video track has no usable duration.
        case noDuration
        /// The video track has no sync sample (near a cue).
        case noKeyframe
        /// The sync samples' presentation times are out of decode order, so that one keyframe is the nearest to cues
        /// on both sides of another's (each keyframe's cues must follow each other: its tile is placed, then dropped).
        case unorderedKeyframes
    }

    /// The kind of failure.
    public var code: Code
    /// The 1-based line of the WebVTT text where it was found, when there is one.
    public var line: Int?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, line: Int? = nil, _ detail: String) {
        self.code = code
        self.line = line
        self.detail = detail
    }

    /// "line N: detail", or the detail alone.
    public var description: String { line.map { "line \($0): \(detail)" } ?? detail }

    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
