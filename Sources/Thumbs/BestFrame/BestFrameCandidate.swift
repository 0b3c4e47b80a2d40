import MP4Box

/// One keyframe `ThumbnailTime.best` considered: where it is, and its score or why it has none.
public struct BestFrameCandidate: Sendable, Hashable {
    /// The keyframe's presentation time, in the video track's timescale.
    public var mediaTime: MediaTime
    /// The keyframe's sample (0-based, decode order).
    public var sample: Int
    /// Its score; nil when it could not be decoded (`failure` says why).
    public var score: FrameScore?
    /// Why it could not be decoded; nil when it was.
    public var failure: String?
    /// Whether it is the thumbnail's picture.
    public var isChosen: Bool

    /// The keyframe's presentation time in seconds.
    public var time: Double { mediaTime.seconds }

    /// Makes a candidate (the generator does).
    public init(mediaTime: MediaTime, sample: Int, score: FrameScore?, failure: String? = nil, isChosen: Bool = false) {
        self.mediaTime = mediaTime
        self.sample = sample
        self.score = score
        self.failure = failure
        self.isChosen = isChosen
    }
}
