/// A video track given as samples already in their sample entry's format, with the boxes that entry holds: what
/// `VideoMovieWriter` writes as a movie. Matroska's frames come this way (an `avcC`, `hvcC` or `av1C` record as
/// CodecPrivate, the samples as the muxer stored them); an `ElementaryVideoTrack` is turned into one.
public struct CodedVideoTrack: Sendable {
    /// One box of the sample entry (a decoder configuration record, `pasp`, `colr`), by its type and payload.
    public struct EntryBox: Sendable, Equatable {
        public var type: FourCC
        public var payload: [UInt8]

        /// Makes a box.
        public init(type: FourCC, payload: [UInt8]) {
            self.type = type
            self.payload = payload
        }
    }

    /// One sample.
    public struct Sample: Sendable, Equatable {
        /// Its decoding time, in `timescale` ticks.
        public var decodeTime: Int64
        /// Its presentation time, in `timescale` ticks.
        public var presentationTime: Int64
        /// Whether decoding can start at it.
        public var isSync: Bool
        /// Whether no other sample refers to it.
        public var isDisposable: Bool
        /// Its bytes.
        public var data: [UInt8]

        /// Makes a sample.
        public init(decodeTime: Int64, presentationTime: Int64, isSync: Bool, isDisposable: Bool = false, data: [UInt8]) {
            self.decodeTime = decodeTime
            self.presentationTime = presentationTime
            self.isSync = isSync
            self.isDisposable = isDisposable
            self.data = data
        }
    }

    /// The sample entry's type (`avc1`, `hvc1`, `av01`, `vp09`).
    public var sampleEntry: FourCC
    /// The boxes inside the sample entry, in order.
    public var entryBoxes: [EntryBox]
    /// The coded picture's width and height in pixels.
    public var width: UInt32
    public var height: UInt32
    /// Ticks per second of the sample times.
    public var timescale: UInt32
    /// The samples, in decoding order.
    public var samples: [Sample]
    /// How long the last sample lasts, in `timescale` ticks; nil for as long as the one before it.
    public var lastSampleDuration: Int64?
    /// Each sample's alpha plane, coded as the track's codec codes a picture (a Matroska block's BlockAddition of
    /// type 1, as WebM's transparent VP8 and VP9 carry it): written as an auxiliary track; nil for an opaque track.
    public var alpha: [[UInt8]]?

    /// Makes a track.
    public init(sampleEntry: FourCC, entryBoxes: [EntryBox], width: UInt32, height: UInt32, timescale: UInt32,
                samples: [Sample], lastSampleDuration: Int64? = nil) {
        self.sampleEntry = sampleEntry
        self.entryBoxes = entryBoxes
        self.width = width
        self.height = height
        self.timescale = timescale
        self.samples = samples
        self.lastSampleDuration = lastSampleDuration
    }
}
