/// A video track given as coded pictures (NAL units with their times), as an elementary stream from an MPEG
/// transport stream gives it: what `VideoMovieWriter` writes as a movie.
public struct ElementaryVideoTrack: Sendable {
    /// The codings written: H.264 as `avc3`, HEVC as `hev1` (parameter sets may also come in band).
    public enum Coding: Sendable, Equatable {
        case h264, hevc
    }

    /// One coded picture.
    public struct Sample: Sendable, Equatable {
        /// Its decoding time, in `timescale` ticks.
        public var decodeTime: Int64
        /// Its presentation time, in `timescale` ticks.
        public var presentationTime: Int64
        /// Whether decoding can start at it.
        public var isSync: Bool
        /// Its NAL units, without start codes or length prefixes.
        public var nalUnits: [[UInt8]]
        /// Whether no other sample refers to it (written in sdtp: a decode that does not show it may leave it out).
        public var isDisposable: Bool

        /// Makes a sample.
        public init(decodeTime: Int64, presentationTime: Int64, isSync: Bool, nalUnits: [[UInt8]], isDisposable: Bool = false) {
            self.decodeTime = decodeTime
            self.presentationTime = presentationTime
            self.isSync = isSync
            self.nalUnits = nalUnits
            self.isDisposable = isDisposable
        }
    }

    /// The coding.
    public var coding: Coding
    /// Ticks per second of the sample times.
    public var timescale: UInt32
    /// The parameter sets for the configuration record (H.264 SPS and PPS; HEVC VPS, SPS and PPS), without start codes.
    public var parameterSets: [[UInt8]]
    /// The samples, in decoding order.
    public var samples: [Sample]
    /// How long the last sample lasts, in `timescale` ticks; nil for as long as the one before it.
    public var lastSampleDuration: Int64?

    /// Makes a track.
    public init(coding: Coding, timescale: UInt32, parameterSets: [[UInt8]], samples: [Sample],
                lastSampleDuration: Int64? = nil) {
        self.coding = coding
        self.timescale = timescale
        self.parameterSets = parameterSets
        self.samples = samples
        self.lastSampleDuration = lastSampleDuration
    }

    /// The NAL unit type of a NAL unit whose first byte is `first`.
    func nalUnitType(_ first: UInt8) -> UInt8 {
        coding == .h264 ? first & 0x1F : (first >> 1) & 0x3F
    }

    /// The first parameter set of NAL unit `type`.
    func parameterSet(ofType type: UInt8) -> [UInt8]? {
        parameterSets.first { $0.first.map(nalUnitType) == type }
    }
}
