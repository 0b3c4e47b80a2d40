/// Ceilings on the work and memory one thumbnail may take, each with a typed error past it
/// (`ThumbnailError` `limitExceeded`), so that no number in a file can make a thumbnail hold gigabytes or run for hours.
///
/// The index has its own ceilings (`ParseLimits`: 256 MiB for moov or a moof, 50 million samples a track);
/// decoders bound their pictures by the codec's level limits.
public struct ThumbnailLimits: Sendable, Hashable {
    /// Most samples decoded for one picture: an exact time far from the keyframe before it. Default 20,000
    /// (11 minutes at 30 frames a second; ffmpeg and AVFoundation would decode them all).
    public var maximumDecodedSamples = 20_000
    /// Largest sample fetched, in bytes. Default 64 MiB (an 8K intra frame at a high bit rate is under 10 MB).
    public var maximumSampleSize = 64 << 20
    /// Sample bytes fetched and held at once while a long run of samples is decoded; the next batch is fetched
    /// after the previous one is decoded. Default 32 MiB.
    public var batchBytes = 32 << 20
    /// Sample bytes a `ThumbnailGenerator` keeps for later times (a run of times near one keyframe fetches it once).
    /// Default 64 MiB.
    public var sampleCacheBytes = 64 << 20

    /// The documented defaults.
    public init() {}
}
