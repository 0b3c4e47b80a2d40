import MP4Box

/// One keyframe `ThumbnailTime.best` considered: where it is (a movie's sample, a stream's segment), and its score or
/// why it has none.
public struct BestFrameCandidate: Sendable, Hashable {
    /// The keyframe's presentation time, in the video track's timescale (of a stream: on the stream's timeline).
    public var mediaTime: MediaTime
    /// The keyframe's sample in a movie (0-based, decode order); nil for a stream's.
    public var sample: Int?
    /// The number of the segment a stream's keyframe starts; nil for a movie's.
    public var segment: Int64?
    /// Its score; nil when it could not be read or decoded (`failure` says why).
    public var score: FrameScore?
    /// Why it could not be read or decoded; nil when it was.
    public var failure: String?
    /// Whether it is the thumbnail's picture.
    public var isChosen: Bool

    /// The keyframe's presentation time in seconds.
    public var time: Double { mediaTime.seconds }

    /// Makes a candidate (the generators do).
    public init(mediaTime: MediaTime, sample: Int? = nil, segment: Int64? = nil, score: FrameScore?, failure: String? = nil,
                isChosen: Bool = false) {
        self.mediaTime = mediaTime
        self.sample = sample
        self.segment = segment
        self.score = score
        self.failure = failure
        self.isChosen = isChosen
    }
}
