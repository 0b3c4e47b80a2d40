/// Caps on what a Matroska file may make the reader hold or walk: no allocation is sized by an element's claimed
/// size before its bytes are there, and these bound what the bytes that are there may ask for.
public struct MatroskaLimits: Sendable, Equatable {
    /// Largest master element parsed whole (the EBML header, Info, Tracks, a SeekHead), in bytes.
    public var maximumHeaderElementBytes: Int
    /// Largest Cues element, in bytes (about 12 bytes a cue point: 1.3 million points in 16 MiB).
    public var maximumCuesBytes: Int
    /// Most cue points kept.
    public var maximumCuePoints: Int
    /// Most tracks.
    public var maximumTrackCount: Int
    /// Largest block (one coded frame, or a lace of them), in bytes.
    public var maximumBlockBytes: Int
    /// Most frames in one laced block.
    public var maximumLacedFrames: Int
    /// Most frames a forward read of clusters holds.
    public var maximumFrames: Int
    /// Largest CodecPrivate, in bytes.
    public var maximumCodecPrivateBytes: Int

    /// Caps for files of any length and codec: headers of up to 4 MiB, Cues of up to 16 MiB, frames of up to 64 MiB.
    public init(maximumHeaderElementBytes: Int = 4 << 20, maximumCuesBytes: Int = 16 << 20, maximumCuePoints: Int = 1 << 20,
                maximumTrackCount: Int = 256, maximumBlockBytes: Int = 64 << 20,
                maximumLacedFrames: Int = 256, maximumFrames: Int = 4_096, maximumCodecPrivateBytes: Int = 1 << 20) {
        self.maximumHeaderElementBytes = maximumHeaderElementBytes
        self.maximumCuesBytes = maximumCuesBytes
        self.maximumCuePoints = maximumCuePoints
        self.maximumTrackCount = maximumTrackCount
        self.maximumBlockBytes = maximumBlockBytes
        self.maximumLacedFrames = maximumLacedFrames
        self.maximumFrames = maximumFrames
        self.maximumCodecPrivateBytes = maximumCodecPrivateBytes
    }
}
