import MP4Box
import StreamManifests

/// An animated preview: an animated WebP file and what went into it.
public struct AnimatedPreview: Sendable {
    /// One frame of the animation.
    public struct Frame: Sendable, Equatable {
        /// When it starts, from the start of the animation (whole milliseconds, as WebP times frames).
        public var start: Duration
        /// How long it is shown.
        public var duration: Duration
        /// The time on the movie's timeline it shows: the presentation time of its sample, in the track's timescale (of a
        /// stream's preview: on the stream's timeline).
        public var sourceTime: MediaTime
        /// Its sample's index in decode order, in its movie (of a stream's preview: in its segment's).
        public var sampleIndex: Int
        /// Whether that sample is a keyframe.
        public var isSyncSample: Bool
    }

    /// The animated WebP file (it loops for ever).
    public var encoded: [UInt8]
    /// The canvas size.
    public var width: Int
    public var height: Int
    /// The frames in order; a movie frame shown for several of the preview's frame times is one frame, shown longer.
    public var frames: [Frame]
    /// The length of the animation.
    public var duration: Duration
    /// Samples given to the decoder: keyframes, and the frames between a keyframe and a frame the preview shows when
    /// the frame rate asks for frames that are not keyframes.
    public var samplesDecoded: Int
    /// Samples whose bytes were fetched (or taken from bytes the index read held), counted where the fetch is asked
    /// for: each run of samples is fetched once, so this equals `samplesDecoded` unless a sample is fetched twice.
    public var samplesFetched: Int
    /// Bytes read from the source and requests made (the index included, unless it was given; of a stream, the
    /// playlists and init segments too).
    public var bytesFetched: UInt64
    public var requests: Int
    /// Of a stream's preview, the renditions its pictures were taken from (one per period the span plays in), with
    /// their segments; empty for a movie's.
    public var streamRenditions: [StreamRendition] = []
    /// Of a stream's preview, the segments its pictures were taken from, in order; empty for a movie's.
    public var streamSegments: [StreamSegment] = []
}
