import Foundation

/// A corpus of movies laid out as `Fixtures/real-world` is: `media/` (the files), what ffprobe and ffmpeg say about
/// them (`expectations/`, `references/`, written by `Fixtures/real-world/make-expectations.py`), and the outcomes that
/// are typed errors (`outcomes.json`). Two such corpora: the real-world files from other projects' test data, and the
/// codec files made by `Fixtures/codecs/make-codecs.sh`.
public struct MediaCorpus: Sendable, CustomStringConvertible {
    /// Files from other projects' test data (`Fixtures/real-world`).
    public static let realWorld = MediaCorpus(folder: "real-world")
    /// One movie per codec, profile and sample entry beyond the default decoders' (`Fixtures/codecs`).
    public static let codecs = MediaCorpus(folder: "codecs")
    /// Every file of both corpora.
    public static let allFiles: [File] = [realWorld, codecs].flatMap { corpus in corpus.names.map { File(corpus: corpus, name: $0) } }

    /// One file of a corpus, named by its corpus folder and name.
    public struct File: Sendable, CustomStringConvertible {
        public var corpus: MediaCorpus
        public var name: String
        public var description: String { "\(corpus.folder)/\(name)" }
        /// The file's path.
        public var path: String { corpus.path(name) }
    }

    /// The corpus folder's name in `Fixtures`.
    public let folder: String
    /// The corpus folder.
    public let directory: URL
    /// Every file in `media/`, sorted.
    public let names: [String]
    /// What `outcomes.json` says of the files that do not give ffmpeg's picture, by name, in this build: a build with
    /// the `FFmpegDecoders` trait leaves out the errors of the files it decodes.
    public let outcomes: [String: Outcome]

    init(folder: String) {
        self.folder = folder
        directory = Fixtures.directory.appendingPathComponent(folder)
        let media = directory.appendingPathComponent("media").path
        names = ((try? FileManager.default.contentsOfDirectory(atPath: media)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let data = try? Data(contentsOf: directory.appendingPathComponent("outcomes.json"))
        var outcomes = data.flatMap { try? JSONDecoder().decode([String: Outcome].self, from: $0) } ?? [:]
        #if FFmpegDecoders
        for (name, outcome) in outcomes where outcome.withFFmpegDecoders == "picture" { outcomes[name]?.error = nil }
        #endif
        self.outcomes = outcomes
    }

    public var description: String { folder }

    /// Whether a corpus file is Matroska or WebM (by its name: the corpora name them so), not an MP4 or QuickTime movie.
    public static func isMatroska(_ name: String) -> Bool {
        [".mkv", ".webm", ".mka"].contains(where: name.hasSuffix)
    }

    /// Whether a corpus file is a bare transport stream, read as a stream of one segment.
    public static func isTransportStream(_ name: String) -> Bool {
        [".ts", ".m2ts", ".mts"].contains(where: name.hasSuffix)
    }

    /// The path of a corpus file.
    public func path(_ name: String) -> String {
        directory.appendingPathComponent("media/\(name)").path
    }

    /// The path of ffmpeg's reference picture of `role` for `name`.
    public func referencePath(_ name: String, role: String) -> String {
        directory.appendingPathComponent("references/\(name).\(role).png").path
    }

    /// What ffprobe and ffmpeg said about `name`.
    public func expectation(_ name: String) throws -> RealWorldExpectation {
        let data = try Data(contentsOf: directory.appendingPathComponent("expectations/\(name).json"))
        return try JSONDecoder().decode(RealWorldExpectation.self, from: data)
    }

    /// How each keyframe of each movie looks to ffmpeg's filters (`keyframe-looks.json`, written by
    /// `make-keyframe-looks.py`), by file name, in time order.
    public func keyframeLooks() throws -> [String: [KeyframeLook]] {
        let data = try Data(contentsOf: directory.appendingPathComponent("keyframe-looks.json"))
        return try JSONDecoder().decode([String: [KeyframeLook]].self, from: data)
    }

    /// One keyframe as ffmpeg measured it, decoded alone.
    public struct KeyframeLook: Decodable, Sendable {
        /// Its start on the ISO timeline, in seconds.
        public var time: Double
        /// `blackframe`'s percentage of luma samples under 32 (nil when ffmpeg gave none).
        public var pblack: Double?
        /// `signalstats`' mean, 10th and 90th percentile of luma, on 0-255.
        public var yavg: Double
        public var ylow: Double
        public var yhigh: Double
        /// `entropy`'s normalised luma entropy, 0-1.
        public var entropy: Double?

        /// Whether ffmpeg's filters show a picture not worth a poster: near-black by `blackframe`'s default (98 % of
        /// the samples under 32), or flat (normalised entropy under 0.3, or 80 % of the samples on one level: the
        /// 10th and 90th percentiles equal).
        public var isNearBlackOrFlat: Bool {
            (pblack ?? 0) >= 98 || (entropy ?? 1) < 0.3 || ylow == yhigh
        }
    }

    /// A file that must give a typed error instead of a thumbnail, or whose counts ffprobe cannot give.
    public struct Outcome: Decodable, Sendable {
        /// A typed error and its code.
        public struct ExpectedError: Decodable, Sendable {
            /// The error type's name: `DecodeError`, `ThumbnailError`, `MP4Error`.
            public var type: String
            /// Its code's raw value: `unsupportedCodec`, `noVideo`, ...
            public var code: String
        }

        /// The error the file must give (a codec without a decoder, encryption, no video, not a movie).
        public var error: ExpectedError?
        /// Why the file cannot give a thumbnail.
        public var why: String?
        /// `picture` where a build with the `FFmpegDecoders` trait decodes the file: it then gives ffmpeg's picture.
        public var withFFmpegDecoders: String?
        /// Whether the file is interlaced: its picture is deinterlaced, ffmpeg's is not, so it is compared at 30 dB.
        public var interlaced: Bool?
        /// Why ffprobe's packet or keyframe count is not the index's on this file (it counts what it could read):
        /// the info test compares the counts with the ones read from the fragments' boxes by make-expectations.py.
        public var ffprobeCountsDiffer: String?
    }
}

/// What ffprobe and ffmpeg said about one corpus file.
public struct RealWorldExpectation: Decodable, Sendable {
    /// The main video stream (ffmpeg's `-map 0:V:0`).
    public struct Video: Decodable, Sendable {
        /// One frame the conformance suite asks for.
        public struct Role: Decodable, Sendable {
            /// `first` (on screen at 0 s) or `mid`.
            public var role: String
            /// The frame's pts in the stream time base.
            public var pts: Int64
            /// The frame's pts in seconds: where it starts on the movie timeline.
            public var ptsSeconds: Double
            /// The time to ask for.
            public var requestSeconds: Double
        }

        public var trackID: UInt32?
        public var codecName: String?
        public var codecTag: String?
        /// ffprobe's profile name (`High 4:4:4 Predictive`, `Main 10`, `HQ`), where it names one.
        public var profile: String?
        /// ffprobe's reading of a Dolby Vision configuration record: its profile and compatibility ID.
        public var dolbyVision: DolbyVision?
        public var pixFmt: String?
        /// ffprobe's colour names (`bt709`, `bt2020`, `smpte2084`, `bt2020nc`, ...; range `tv` or `pc`), nil when unspecified.
        public var colorPrimaries: String?
        public var colorTransfer: String?
        public var colorSpace: String?
        public var colorRange: String?
        public var width: Int
        public var height: Int
        public var displayWidth: Int?
        public var displayHeight: Int?
        public var rotation: Double?
        public var displayMatrix: String?
        public var packetCount: Int
        public var keyPacketCount: Int
        /// Samples and sync samples of the track's fragments, read from trun/tfhd/trex by the script (fragmented tracks).
        public var fragmentSampleCount: Int?
        public var fragmentSyncSampleCount: Int?
        public var ffmpegDecodes: Bool
        public var roles: [Role]?

        /// The display matrix's linear part (a, b, c, d) divided by 65536, or identity when ffprobe reported none.
        /// A Dolby Vision configuration record, as ffprobe reads it.
        public struct DolbyVision: Decodable, Sendable {
            public var profile: Int
            public var compatibility: Int?
        }

        public var matrixLinearPart: (Double, Double, Double, Double) { FFprobeDisplayMatrix.linearPart(displayMatrix) }
    }

    public var file: String
    public var fileSize: UInt64
    public var videoStreamCount: Int
    public var video: Video?
}
