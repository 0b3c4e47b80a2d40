import ByteSources

/// How far a storyboard has got, reported while it is made.
public struct StoryboardProgress: Sendable, Equatable {
    /// Cues whose tile is placed.
    public var cuesDone: Int
    /// Cues in all.
    public var cueCount: Int
    /// Keyframes decoded so far.
    public var keyframesDone: Int
    /// Distinct keyframes in all.
    public var keyframeCount: Int
    /// Bytes read from the source so far (the index included).
    public var bytesFetched: UInt64
    /// The time since the work started.
    public var elapsed: Duration

    /// Makes a progress report.
    public init(cuesDone: Int, cueCount: Int, keyframesDone: Int, keyframeCount: Int, bytesFetched: UInt64, elapsed: Duration) {
        self.cuesDone = cuesDone
        self.cueCount = cueCount
        self.keyframesDone = keyframesDone
        self.keyframeCount = keyframeCount
        self.bytesFetched = bytesFetched
        self.elapsed = elapsed
    }

    /// Bytes fetched per second so far (0 before any time has passed).
    public var bytesPerSecond: Double { elapsed > .zero ? Double(bytesFetched) / elapsed.seconds : 0 }
}
