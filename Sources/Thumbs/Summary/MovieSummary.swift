import MP4Box

/// What a located movie holds, in the stable JSON shape of `thumbs info --json` and the service's `/info`, and
/// its text form.
public struct MovieSummary: Encodable, Sendable {
    /// One track.
    public struct TrackSummary: Encodable, Sendable {
        public var id: UInt32
        public var kind: String
        public var handler: String
        public var codec: String?
        /// The codec in words, with its profile, format and Dolby Vision configuration (`VideoCodecDescription.summary`).
        public var codecName: String?
        public var sampleEntry: String?
        public var encrypted: Bool
        public var enabled: Bool
        public var codedWidth: Int?
        public var codedHeight: Int?
        public var croppedWidth: Int?
        public var croppedHeight: Int?
        public var displayWidth: Int?
        public var displayHeight: Int?
        /// The clean aperture as shown (`MovieTrack.cleanApertureDisplaySize`), when the track has a clap box.
        public var cleanApertureWidth: Int?
        public var cleanApertureHeight: Int?
        public var pixelAspectRatio: String?
        public var rotation: Int?
        public var mirrored: Bool?
        public var matrixIsAxisAligned: Bool?
        public var bitDepth: Int?
        public var chromaFormat: Int?
        public var interlaced: Bool?
        public var colourPrimaries: Int?
        public var transferCharacteristics: Int?
        public var matrixCoefficients: Int?
        public var fullRange: Bool?
        public var timescale: UInt32
        public var duration: Double
        public var sampleCount: Int
        public var syncSampleCount: Int
        public var channelCount: Int?
        public var sampleRate: Double?
    }

    public var fragmented: Bool
    public var moovOffset: UInt64
    public var moovSize: UInt64
    public var fileSize: UInt64?
    public var bytesRead: Int
    public var reads: Int
    public var duration: Double
    public var timescale: UInt32
    public var posterTime: Double?
    public var majorBrand: String?
    public var fragmentCount: Int
    public var artworkCount: Int
    public var artworkFormats: [String]
    public var tracks: [TrackSummary]

    /// The summary of what `locate` found, with what it cost to find.
    public init(_ located: MovieLocator.Result) {
        self.init(located.movie, fileSize: located.fileLength, bytesRead: located.bytesRead, reads: located.reads.count)
    }

    /// The summary of `movie` (of `fileSize` bytes when known), with what answering cost: `bytesRead` in `reads`.
    public init(_ movie: Movie, fileSize: UInt64?, bytesRead: Int, reads: Int) {
        fragmented = movie.isFragmented
        moovOffset = movie.moovOffset
        moovSize = movie.moovHeader.size ?? 0
        self.fileSize = fileSize
        self.bytesRead = bytesRead
        self.reads = reads
        duration = movie.durationSeconds
        timescale = movie.timescale
        posterTime = movie.posterTimeSeconds
        majorBrand = movie.fileType?.majorBrand.description
        fragmentCount = movie.fragmentCount
        artworkCount = movie.artwork.count
        artworkFormats = movie.artwork.map(\.format.rawValue)
        tracks = movie.tracks.map(Self.summarise)
    }

    static func summarise(_ track: MovieTrack) -> TrackSummary {
        var summary = TrackSummary(
            id: track.id, kind: track.kind.rawValue, handler: track.handlerType.description,
            codec: track.codingFormat?.description, sampleEntry: track.sampleEntryType?.description,
            encrypted: track.isEncrypted, enabled: track.trackHeader.isEnabled,
            timescale: track.timescale, duration: track.durationSeconds,
            sampleCount: track.samples.count, syncSampleCount: track.samples.syncSampleCount)
        if let entry = track.visualEntry {
            summary.codecName = entry.codecDescription.summary
            summary.codedWidth = track.codedSize?.width
            summary.codedHeight = track.codedSize?.height
            summary.croppedWidth = track.croppedSize?.width
            summary.croppedHeight = track.croppedSize?.height
            summary.displayWidth = track.displaySize?.width
            summary.displayHeight = track.displaySize?.height
            summary.cleanApertureWidth = track.cleanApertureDisplaySize?.width
            summary.cleanApertureHeight = track.cleanApertureDisplaySize?.height
            let aspect = track.pixelAspectRatio
            summary.pixelAspectRatio = "\(aspect.h):\(aspect.v)"
            summary.rotation = track.orientation?.rotation ?? 0
            summary.mirrored = track.orientation?.mirrored ?? false
            summary.matrixIsAxisAligned = track.orientation != nil
            let parameters = track.videoParameters
            summary.bitDepth = parameters?.bitDepthLuma
            summary.chromaFormat = parameters?.chromaFormat
            summary.interlaced = parameters?.isInterlaced
            if let colour = track.colour {
                summary.colourPrimaries = colour.primaries
                summary.transferCharacteristics = colour.transfer
                summary.matrixCoefficients = colour.matrix
                summary.fullRange = colour.fullRange
            }
        }
        for entry in track.sampleEntries {
            if case .audio(let audio) = entry {
                summary.channelCount = Int(audio.channelCount)
                // A version 2 sound description stores the rate as a float: one that is not a number is left out.
                summary.sampleRate = audio.sampleRate.isFinite ? audio.sampleRate : nil
                break
            }
        }
        return summary
    }

    /// The JSON (`StableJSON`).
    public func json() throws -> [UInt8] { try StableJSON.encode(self) }

    /// A few lines for people.
    public var text: String {
        var lines: [String] = []
        let place = fragmented ? "fragmented, " : ""
        lines.append("movie: \(formatSeconds(duration)), \(place)moov at \(moovOffset) (\(moovSize) bytes)"
            + (fileSize.map { ", file \($0) bytes" } ?? ""))
        lines.append("read: \(bytesRead) bytes in \(reads) reads")
        if artworkCount > 0 { lines.append("cover art: \(artworkFormats.joined(separator: ", "))") }
        for track in tracks {
            var line = "track \(track.id) \(track.kind) \(track.codec ?? "?")" + (track.codecName.map { " (\($0))" } ?? "")
            if track.encrypted { line += " (encrypted, \(track.sampleEntry ?? "?"))" }
            if let width = track.codedWidth, let height = track.codedHeight {
                line += ", coded \(width)x\(height)"
                if let displayWidth = track.displayWidth, let displayHeight = track.displayHeight {
                    line += ", display \(displayWidth)x\(displayHeight)"
                }
                if let apertureWidth = track.cleanApertureWidth, let apertureHeight = track.cleanApertureHeight {
                    line += ", clean aperture \(apertureWidth)x\(apertureHeight)"
                }
                if let aspect = track.pixelAspectRatio, aspect != "1:1" { line += ", pixel aspect \(aspect)" }
                if let rotation = track.rotation, rotation != 0 { line += ", rotated \(rotation)" }
                if track.mirrored == true { line += ", mirrored" }
                if track.matrixIsAxisAligned == false { line += ", matrix not axis-aligned" }
                if let depth = track.bitDepth { line += ", \(depth)-bit" }
            }
            if let channels = track.channelCount, let rate = track.sampleRate {
                line += ", \(channels) ch, \(Self.formatWhole(rate)) Hz"
            }
            line += ", \(formatSeconds(track.duration)), \(track.sampleCount) samples (\(track.syncSampleCount) sync)"
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Seconds to the millisecond; from 10^12 s (some 30,000 years: no real movie's length, but a file may say so) as Swift
    /// prints a double, since the count of milliseconds would not fit an integer.
    private func formatSeconds(_ seconds: Double) -> String {
        guard seconds.magnitude < Self.largestPlainNumber / 1000 else { return "\(seconds) s" }
        let milliseconds = Int((seconds * 1000).rounded())
        return "\(milliseconds / 1000).\(String(1000 + milliseconds % 1000).dropFirst()) s"
    }

    /// `value` rounded down to a whole number, or as Swift prints a double when it is not below 10^15.
    private static func formatWhole(_ value: Double) -> String {
        value.magnitude < largestPlainNumber ? String(Int(value)) : "\(value)"
    }

    /// Whole numbers below this are printed as integers: well inside `Int`, and exact in a double.
    private static let largestPlainNumber = 1e15
}
