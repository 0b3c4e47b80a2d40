/// One track of a movie: what it holds, how it is timed and turned, and where its samples are.
public struct MovieTrack: Sendable {
    /// The track ID from tkhd.
    public let id: UInt32
    /// The handler type: `vide`, `soun`, `text`, `meta`, ...
    public let handlerType: FourCC
    /// The track header.
    public let trackHeader: TrackHeaderBox
    /// The media timescale, in units per second.
    public let timescale: UInt32
    /// The media duration from mdhd, in media timescale units (0 in many fragmented files).
    public let mediaDuration: UInt64
    /// The edit list entries (empty when there is none).
    public let edits: [EditListBox.Entry]
    /// The edit list as a mapping between media and presentation time.
    public let timeline: EditTimeline
    /// The sample entries from stsd.
    public let sampleEntries: [SampleEntry]
    /// The samples.
    public let samples: SampleTable
    /// The orientation from the tkhd matrix composed with the mvhd matrix, or nil when the matrix is not one of the eight axis-aligned ones.
    public let orientation: Orientation?
    /// The composed matrix's linear part (a, b, c, d), reported whatever it is.
    public let displayMatrix: (a: Double, b: Double, c: Double, d: Double)
    /// The tracks this one is an auxiliary picture of (`tref`/`auxl`: an alpha plane's track, with handler `auxv`).
    public let auxiliaryFor: [UInt32]
    /// Where a segment index says the track's media ends (media timescale), when only some of its fragments are
    /// read: the duration its read samples cannot give.
    let indexedEnd: Int64?

    /// The kind of media, by handler.
    public var kind: Kind { Kind(handlerType) }

    /// What a track holds.
    public enum Kind: String, Sendable {
        case video, audio, text, subtitle, metadata, other

        init(_ handler: FourCC) {
            switch handler {
            case "vide": self = .video
            case "soun": self = .audio
            case "text", "sbtl": self = .text
            case "subt": self = .subtitle
            case "meta": self = .metadata
            default: self = .other
            }
        }
    }

    /// The first visual sample entry, if any.
    public var visualEntry: VisualSampleEntry? {
        for entry in sampleEntries {
            if case .visual(let visual) = entry { return visual }
        }
        return nil
    }

    /// The visual entry samples with `descriptionIndex` (1-based, from stsc or tfhd) are coded with, if it is one.
    public func visualEntry(descriptionIndex: UInt32) -> VisualSampleEntry? {
        let position = Int(descriptionIndex) - 1
        guard position >= 0, position < sampleEntries.count, case .visual(let entry) = sampleEntries[position] else { return nil }
        return entry
    }

    /// The four-character code of the first sample entry (`encv` stays `encv`; see `codingFormat`).
    public var sampleEntryType: FourCC? { sampleEntries.first?.type }

    /// The format the samples are coded in: the first entry's code, or frma's original format for encrypted entries.
    public var codingFormat: FourCC? {
        if let visual = visualEntry { return visual.codingFormat }
        return sampleEntries.first?.type
    }

    /// Whether the first sample entry is protected (encv, enca, or has a sinf).
    public var isEncrypted: Bool {
        switch sampleEntries.first {
        case .visual(let entry): entry.isProtected
        case .audio(let entry): entry.header.type == "enca"
        default: false
        }
    }

    /// The presentation duration in seconds: the edit list's when there is one, else mdhd's, else (when only some
    /// fragments are read) where the segment index ends, else the sum of sample durations.
    public var durationSeconds: Double {
        if let presented = timeline.presentedDuration, presented > 0 {
            return Double(presented) / Double(timescale)
        }
        if mediaDuration > 0 { return Double(mediaDuration) / Double(timescale) }
        if let indexedEnd, indexedEnd > 0 { return Double(indexedEnd) / Double(timescale) }
        guard samples.count > 0, let last = try? samples.sample(at: samples.count - 1) else { return 0 }
        return Double(last.decodeTime.saturatingAdd(Int64(last.duration))) / Double(timescale)
    }

    /// The presentation time (on the movie timeline, in media timescale units) of `sample`.
    public func presentationTime(of sample: Sample) -> Int64 {
        timeline.presentationTime(ofMediaTime: sample.compositionTime)
    }

    /// The decode time shifted like presentation time, as ffprobe reports dts.
    public func presentationDecodeTime(of sample: Sample) -> Int64 {
        timeline.presentationTime(ofMediaTime: sample.decodeTime)
    }

    /// The track `trak` describes, its samples continued by those of `fragments`; `fragmentIndex` when those are
    /// only some of the movie's fragments.
    init(trak: ContainerBox, movieHeader: MovieHeaderBox, fragments: [ContainerBox], trackExtends: [TrackExtendsBox],
         indexedEnd fragmentIndex: FragmentIndex?, path: String, limits: ParseLimits,
         diagnostics: inout [ParseDiagnostic]) throws(MP4Error) {
        guard let tkhd = trak.first(TrackHeaderBox.self) else {
            throw MP4Error(.malformed, path: path, offset: trak.header.offset, "trak has no tkhd")
        }
        guard let mdia = trak.container("mdia"), let mdhd = mdia.first(MediaHeaderBox.self) else {
            throw MP4Error(.malformed, path: path, offset: trak.header.offset, "trak has no mdia/mdhd")
        }
        let stbl = mdia.container("minf")?.container("stbl")
        id = tkhd.trackID
        trackHeader = tkhd
        handlerType = mdia.first(HandlerBox.self)?.handlerType ?? FourCC(rawValue: 0)
        auxiliaryFor = trak.container("tref")?.first(TrackReferenceTypeBox.self)?.trackIDs ?? []
        timescale = mdhd.timescale
        mediaDuration = mdhd.duration
        edits = trak.container("edts")?.first(EditListBox.self)?.entries ?? []
        timeline = EditTimeline(edits: edits, movieTimescale: movieHeader.timescale, mediaTimescale: mdhd.timescale)
        sampleEntries = stbl?.first(SampleDescriptionBox.self)?.entries ?? []
        let stblPath = path + "/mdia/minf/stbl"
        let standard = try StandardSampleTable(stbl: stbl ?? ContainerBox(header: trak.header, children: []),
                                               path: stblPath, limits: limits, diagnostics: &diagnostics)
        if fragments.isEmpty {
            samples = SampleTable(standard: standard, fragments: nil)
        } else {
            // Fragments continue the track after moov's samples (a partially fragmented file), or hold all of them.
            let defaults = trackExtends.first(where: { $0.trackID == tkhd.trackID })
            var moovEnd: Int64 = 0
            if standard.count > 0 {
                let last = try standard.sample(at: standard.count - 1)
                moovEnd = last.decodeTime.saturatingAdd(Int64(last.duration))
            }
            let fragmented = try FragmentedSampleTable(trackID: tkhd.trackID, fragments: fragments, defaults: defaults,
                                                       initialDecodeTime: moovEnd, limits: limits)
            let (total, overflow) = standard.count.addingReportingOverflow(fragmented.count)
            guard !overflow, total <= limits.maximumSampleCount else {
                throw MP4Error(.limitExceeded, path: path, offset: trak.header.offset,
                               "moov and fragment samples together exceed the limit of \(limits.maximumSampleCount)")
            }
            samples = SampleTable(standard: standard, fragments: fragmented)
        }
        indexedEnd = fragmentIndex.flatMap { $0.trackID == tkhd.trackID ? $0.endTime : nil }
        displayMatrix = movieHeader.matrix.linearComposed(after: tkhd.matrix)
        orientation = Orientation(linear: displayMatrix)
    }
}
