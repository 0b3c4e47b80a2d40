import FrameDecode

/// Ceilings on the work and memory one thumbnail may take, each with a typed error past it
/// (`ThumbnailError` `limitExceeded`), so that no number in a file can make a thumbnail hold gigabytes or run for hours.
///
/// The index has its own ceilings (`ParseLimits`: 256 MiB for moov or a moof, 50 million samples a track).
/// Decoders are refused any sequence parameter set whose pictures exceed `maximumPictureLumaSamples`
/// (`DecodeError` `limitExceeded`), checked before openh264, libde265 or dav1d sees it.
///
/// So one thumbnail holds at most: the index (`ParseLimits`), `maximumSampleSize` plus `batchBytes` of samples
/// being decoded and `sampleCacheBytes` kept, the decoder's pictures (at most 17 of `maximumPictureLumaSamples`
/// luma samples, see `DecoderLimits`), and a rendered canvas of at most `Renderer.maximumOutputPixelCount` pixels.
/// `ThumbnailTime.best` decodes its candidate keyframes with one decoder a core (each a keyframe alone, its picture
/// dropped once scored), within `batchBytes` of their samples.
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
    /// Most luma samples in one decoded picture. Default 35,651,584 (8192 x 4352), the most any level of H.264 or
    /// HEVC allows; past it, `DecodeError` `limitExceeded` before anything is decoded.
    public var maximumPictureLumaSamples = DecoderLimits.largestLevelLumaSamples

    /// What the decoders are told.
    package var decoderLimits: DecoderLimits {
        var limits = DecoderLimits()
        limits.maximumLumaSamples = maximumPictureLumaSamples
        return limits
    }

    /// The documented defaults.
    public init() {}
}
