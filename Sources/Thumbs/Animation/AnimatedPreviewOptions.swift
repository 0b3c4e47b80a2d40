import ByteSources

/// What an animated preview shows and how it is made: a span of the movie at a frame rate, a width, WebP settings.
/// The defaults and ceilings are Mux's animated images': 5 s from the start at 15 fps, 320 px wide; at most 10 s and
/// 30 fps.
public struct AnimatedPreviewOptions: Sendable, Hashable {
    /// The longest span a preview covers.
    public static let maximumDuration: Duration = .seconds(10)
    /// The highest frame rate.
    public static let maximumFramesPerSecond = 30.0

    /// Where the preview starts on the movie's timeline.
    public var start: Duration = .zero
    /// Where it ends; nil for 5 s after `start`. Either way, within the movie.
    public var end: Duration?
    /// Frames a second. A frame shows the keyframe within half a frame's time of its time when there is one, else
    /// the frame on screen then, decoded from the keyframe before it (with the frames between, once for all the
    /// frames that keyframe serves): a rate below the movie's keyframe rate fetches keyframes only.
    public var framesPerSecond = 15.0
    /// The width in pixels (the height follows the picture's shape); a smaller video is not enlarged.
    public var width = 320
    /// Lossy WebP quality, 0 to 100.
    public var quality = 75
    /// Lossless WebP frames instead.
    public var lossless = false
    /// Whether the track's rotation and mirror are applied.
    public var appliesPreferredTrackTransform = true
    /// Ceilings on samples decoded and their sizes.
    public var limits = ThumbnailLimits()
    /// Samples closer than this many bytes are read in one request; nil for the source's own gap.
    public var coalescingGap: UInt64?

    /// The defaults.
    public init() {}

    /// Checks the options that do not depend on the movie.
    /// - Throws: `ThumbnailError` `invalidOption` naming the option.
    public func validate() throws(ThumbnailError) {
        guard start >= .zero else {
            throw ThumbnailError(.invalidOption, "the start must not be negative, not \(start.seconds) s")
        }
        if let end {
            guard end > start else {
                throw ThumbnailError(.invalidOption, "the end (\(end.seconds) s) must come after the start (\(start.seconds) s)")
            }
            guard end - start <= Self.maximumDuration else {
                throw ThumbnailError(.invalidOption,
                                     "a preview covers at most \(Self.maximumDuration.seconds) s, not \((end - start).seconds) s")
            }
        }
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= Self.maximumFramesPerSecond else {
            throw ThumbnailError(.invalidOption, "the frame rate must be above 0 and at most \(Self.maximumFramesPerSecond), not \(framesPerSecond)")
        }
        guard (1...4096).contains(width) else {
            throw ThumbnailError(.invalidOption, "the width must be 1 to 4096 pixels, not \(width)")
        }
        guard (0...100).contains(quality) else {
            throw ThumbnailError(.invalidOption, "the quality must be 0 to 100, not \(quality)")
        }
    }
}
