/// A parsed movie: its header, tracks, fragments and where its index was found.
public struct Movie: Sendable {
    /// The file type box, if the file has one.
    public let fileType: FileTypeBox?
    /// The movie header.
    public let movieHeader: MovieHeaderBox
    /// The tracks, in file order.
    public let tracks: [MovieTrack]
    /// Whether the movie has movie fragments (mvex in moov, or moof boxes).
    public let isFragmented: Bool
    /// The moov box's header (offset and size).
    public let moovHeader: BoxHeader
    /// The number of moof boxes read.
    public let fragmentCount: Int
    /// Segment indexes (sidx) found at the top level.
    public let segmentIndexes: [SegmentIndexBox]
    /// Random-access entries from mfra/tfra, per track.
    public let fragmentRandomAccess: [TrackFragmentRandomAccessBox]
    /// Cover art from udta/meta/ilst/covr.
    public let artwork: [CoverArt]
    /// What the parser noticed but did not fail on.
    public let diagnostics: [ParseDiagnostic]
    /// For a movie whose fragments are read on demand (`MovieLocator.Options.fragmentReading`), where they are;
    /// nil when every fragment was read (or the movie is not fragmented).
    public let fragmentIndex: FragmentIndex?
    /// The positions in `fragmentIndex` of the subsegments whose moofs are read, ascending.
    public let readSubsegments: [Int]
    /// The boxes the movie was built from, to build it again with more fragments.
    let parts: TopLevelBoxes

    /// Whether some of the movie's fragments are not read yet: its tracks then hold only the samples of the
    /// subsegments read (`readSubsegments`), numbered from the first of them, and `MovieLocator`'s
    /// `readingFragments(_:of:in:held:)` reads more.
    public var hasUnreadFragments: Bool {
        guard let fragmentIndex else { return false }
        return readSubsegments.count < fragmentIndex.subsegments.count
    }

    /// The movie timescale.
    public var timescale: UInt32 { movieHeader.timescale }
    /// The file offset of moov.
    public var moovOffset: UInt64 { moovHeader.offset }

    /// The movie duration in seconds, from mvhd (or the longest track when mvhd says 0).
    public var durationSeconds: Double {
        if movieHeader.duration > 0 { return Double(movieHeader.duration) / Double(movieHeader.timescale) }
        return tracks.map(\.durationSeconds).max() ?? 0
    }

    /// The QuickTime poster time in seconds, if set.
    public var posterTimeSeconds: Double? {
        movieHeader.posterTime > 0 ? Double(movieHeader.posterTime) / Double(movieHeader.timescale) : nil
    }

    /// The first enabled video track (else the first video track), the one a thumbnail is made from.
    public var primaryVideoTrack: MovieTrack? {
        let video = tracks.filter { $0.kind == .video }
        return video.first(where: { $0.trackHeader.isEnabled && $0.samples.count > 0 }) ?? video.first
    }

    /// The track of `track`'s alpha plane: an auxiliary picture track (handler `auxv`) whose `tref`/`auxl` names it,
    /// with a sample for each of its samples (as a Matroska file's BlockAdditions are written, and an AVIF sequence's
    /// alpha); nil when there is none.
    public func alphaTrack(of track: MovieTrack) -> MovieTrack? {
        tracks.first { $0.handlerType == "auxv" && $0.auxiliaryFor.contains(track.id) && $0.samples.count == track.samples.count }
    }

    /// How far the composition times of the indexed track's samples sit after the times its fragment index gives,
    /// measured on the first subsegment read (nil when none is): muxers differ on what a sidx's earliest
    /// presentation time is (ffmpeg's leaves out the first picture's composition offset when there is no edit list).
    public var fragmentIndexShift: Int64? {
        guard let fragmentIndex, let first = readSubsegments.first,
              let track = tracks.first(where: { $0.id == fragmentIndex.trackID }) else { return nil }
        let range = fragmentIndex.subsegments[first].byteRange
        var earliest: Int64?
        // The first subsegment read holds the table's first samples; the earliest picture is among the first few.
        for index in 0..<min(track.samples.count, Self.shiftSearchLimit) {
            guard let sample = try? track.samples.sample(at: index), range.contains(sample.offset) else { break }
            earliest = min(earliest ?? .max, sample.compositionTime)
        }
        return earliest.map { $0.saturatingSubtract(fragmentIndex.subsegments[first].earliestTime) }
    }

    /// Samples looked at for `fragmentIndexShift`: more than any reorder depth.
    static let shiftSearchLimit = 256

    /// Builds a movie from its top-level parts; with a `fragmentIndex`, `parts` hold the fragments of the
    /// subsegments `readSubsegments` only.
    /// - Throws: `MP4Error` from any track's tables.
    init(parts: TopLevelBoxes, limits: ParseLimits, fragmentIndex: FragmentIndex? = nil,
         readSubsegments: [Int] = []) throws(MP4Error) {
        guard let moov = parts.moov else {
            throw MP4Error(.notFound, path: "", offset: 0, "no moov box")
        }
        guard let mvhd = moov.first(MovieHeaderBox.self) else {
            throw MP4Error(.malformed, path: "moov", offset: moov.header.offset, "moov has no mvhd")
        }
        var diagnostics = parts.diagnostics
        let traks = moov.containers("trak")
        guard traks.count <= limits.maximumTrackCount else {
            throw MP4Error(.limitExceeded, path: "moov", offset: moov.header.offset, "more than \(limits.maximumTrackCount) tracks")
        }
        let trackExtends = moov.container("mvex")?.all(TrackExtendsBox.self) ?? []
        var tracks: [MovieTrack] = []
        for (index, trak) in traks.enumerated() {
            tracks.append(try MovieTrack(trak: trak, movieHeader: mvhd, fragments: parts.fragments, trackExtends: trackExtends,
                                    indexedEnd: fragmentIndex, path: "moov/trak[\(index + 1)]", limits: limits,
                                    diagnostics: &diagnostics))
        }
        fileType = parts.fileType
        movieHeader = mvhd
        self.tracks = tracks
        isFragmented = moov.container("mvex") != nil || !parts.fragments.isEmpty
        moovHeader = moov.header
        fragmentCount = parts.fragments.count
        segmentIndexes = parts.segmentIndexes
        fragmentRandomAccess = parts.mfra?.all(TrackFragmentRandomAccessBox.self) ?? []
        artwork = CoverArt.all(in: moov, limits: limits)
        self.diagnostics = diagnostics
        self.fragmentIndex = fragmentIndex
        self.readSubsegments = readSubsegments
        self.parts = parts
    }
}
