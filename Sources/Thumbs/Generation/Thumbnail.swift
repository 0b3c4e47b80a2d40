import ByteSources
import MP4Box
import StreamManifests

/// A thumbnail and what it took to make it.
public struct Thumbnail: Sendable {
    /// The time spent in each stage.
    public struct Timings: Sendable, Equatable {
        /// Locating and parsing the index (zero when it was cached).
        public var index: Duration = .zero
        /// Fetching sample bytes.
        public var fetch: Duration = .zero
        /// Decoding.
        public var decode: Duration = .zero
        /// Cropping, scaling, colour conversion, rotation.
        public var render: Duration = .zero
        /// Encoding (PNG, JPEG or WebP) and the placeholder's ThumbHash.
        public var encode: Duration = .zero

        /// No time spent yet.
        public init() {}
    }

    /// The picture.
    public var image: RGBImage
    /// The picture encoded as `ThumbnailOptions.format` asked (empty when it is nil).
    public var encoded: [UInt8]
    /// A ThumbHash of the picture (about 25 bytes; `placeholder.base64` to store it inline, `placeholder.image()` to
    /// show it): what a list can show in the picture's place while the picture loads. The generator makes one when
    /// `ThumbnailOptions.makesPlaceholder` asks for it; else nil.
    public var placeholder: ThumbHash?
    /// The time asked for, exactly, as the generator resolved it: in the video track's timescale.
    public var requestedMediaTime: MediaTime
    /// The presentation time of the frame used, exactly, in the video track's timescale (AVAssetImageGenerator's
    /// actual time, as its `CMTime`).
    public var actualMediaTime: MediaTime
    /// The presentation time of the keyframe the decode started at, exactly, in the video track's timescale.
    public var keyframeMediaTime: MediaTime
    /// The time asked for, in seconds.
    public var requestedTime: Double { requestedMediaTime.seconds }
    /// The presentation time of the frame used, in seconds (AVAssetImageGenerator's actual time).
    public var actualTime: Double { actualMediaTime.seconds }
    /// The presentation time of the keyframe the decode started at, in seconds.
    public var keyframeTime: Double { keyframeMediaTime.seconds }
    /// Whether the frame used is a sync sample.
    public var isSyncSample: Bool
    /// The orientation applied (identity when the transform was off).
    public var orientation: Orientation
    /// Whether this is the file's cover art rather than a video frame.
    public var isCoverArt: Bool
    /// Samples decoded.
    public var decodedSamples: Int
    /// Body bytes fetched to make this thumbnail (index included when it was not known yet); what other calls on
    /// the same session fetched meanwhile is not counted, and samples another call fetched before cost nothing.
    public var bytesFetched: UInt64
    /// Requests sent to make this thumbnail, counted as `bytesFetched` is.
    public var requests: Int
    /// Where the time went.
    public var timings: Timings
    /// For `ThumbnailTime.best`: every keyframe considered, in presentation order, with its score (the chosen one
    /// marked); empty for other times.
    public var candidates: [BestFrameCandidate] = []
    /// The length and version (validator) of the bytes it was made from, as far as the source knew them: what a
    /// service derives its entity tag from. Nil in a thumbnail made by hand.
    public var sourceVersion: KnownVersion?
    /// Of a stream's picture, the rendition and segment it came from and its date (nil for a movie's). Its times
    /// (`requestedTime`, `actualTime`, `keyframeTime`) are then on the stream's timeline (the playlist's, or the
    /// presentation's for DASH), and its cost (`bytesFetched`, `requests`) includes the playlists and the init segment.
    public var streamPosition: StreamPosition?
    /// What a viewer should know about the picture that does not stop it being made: a Dolby Vision profile 5 track's
    /// colours, which only a Dolby Vision decoder converts (`VideoCodecDescription.caveats`). Empty for most.
    public var warnings: [String] = []

    /// Makes a thumbnail: the generator does; an app's tests may, to stand in for one.
    public init(image: RGBImage, encoded: [UInt8] = [], placeholder: ThumbHash? = nil, requestedTime: MediaTime,
                actualTime: MediaTime, keyframeTime: MediaTime,
                isSyncSample: Bool = true, orientation: Orientation = .identity, isCoverArt: Bool = false,
                decodedSamples: Int = 1, bytesFetched: UInt64 = 0, requests: Int = 0, timings: Timings = Timings()) {
        self.image = image
        self.encoded = encoded
        self.placeholder = placeholder
        requestedMediaTime = requestedTime
        actualMediaTime = actualTime
        keyframeMediaTime = keyframeTime
        self.isSyncSample = isSyncSample
        self.orientation = orientation
        self.isCoverArt = isCoverArt
        self.decodedSamples = decodedSamples
        self.bytesFetched = bytesFetched
        self.requests = requests
        self.timings = timings
    }

    /// Makes a thumbnail with its times in seconds (kept in microseconds).
    public init(image: RGBImage, encoded: [UInt8] = [], placeholder: ThumbHash? = nil, requestedTime: Double,
                actualTime: Double, keyframeTime: Double,
                isSyncSample: Bool = true, orientation: Orientation = .identity, isCoverArt: Bool = false,
                decodedSamples: Int = 1, bytesFetched: UInt64 = 0, requests: Int = 0, timings: Timings = Timings()) {
        let microseconds = { (seconds: Double) in MediaTime(seconds: seconds, timescale: 1_000_000) }
        self.init(image: image, encoded: encoded, placeholder: placeholder, requestedTime: microseconds(requestedTime),
                  actualTime: microseconds(actualTime), keyframeTime: microseconds(keyframeTime), isSyncSample: isSyncSample,
                  orientation: orientation, isCoverArt: isCoverArt, decodedSamples: decodedSamples,
                  bytesFetched: bytesFetched, requests: requests, timings: timings)
    }
}
