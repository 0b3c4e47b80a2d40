extension MovieLocator {
    /// `movie` with the moofs of more subsegments of its `fragmentIndex` read: `subsegments` are positions in
    /// `fragmentIndex.subsegments` (those read already, or out of range, are left out). The moofs are read in one
    /// concurrent batch of small reads, none for a moof inside `held` (the bytes `locate(in:)` kept). The result's
    /// `heldBytes` are what those reads brought past the moofs (the start of their media data) when they are a few
    /// (`mediaKeepingReads`), its `reads` and
    /// `topLevelBoxes` the reads made and the moofs read, its `indexBytes` the moofs' bytes.
    ///
    /// A moof of the indexed track that does not give its decode time (tfdt) cannot be placed on the timeline
    /// without the ones before it: then every moof is read. Returns `movie` itself when it has no fragment index.
    /// - Throws: `MP4Error` with the source's name (`malformed` when a subsegment does not start with a moof, as
    ///   `locate(in:)` throws for the moofs), or whatever the source throws.
    public func readingFragments(_ subsegments: [Int], of movie: Movie, in source: any ByteSource,
                                 held: HeldBytes = HeldBytes()) async throws -> Result {
        do {
            return try await readingIndexedFragments(subsegments, of: movie, in: source, held: held)
        } catch let error as MP4Error {
            throw error.located(input: source.inputName)
        }
    }

    private func readingIndexedFragments(_ subsegments: [Int], of movie: Movie, in source: any ByteSource,
                                         held: HeldBytes) async throws -> Result {
        let unchanged = Result(movie: movie, reads: [], fileLength: await source.knownLength, topLevelBoxes: [],
                               heldBytes: HeldBytes())
        guard let index = movie.fragmentIndex else { return unchanged }
        let read = Set(movie.readSubsegments)
        let wanted = Set(subsegments.filter { index.subsegments.indices.contains($0) && !read.contains($0) }).sorted()
        guard !wanted.isEmpty else { return unchanged }
        var parts = movie.parts
        var diagnostics: [ParseDiagnostic] = []
        let ranges = wanted.map { index.subsegments[$0].byteRange }
        guard let found = try await readMoofs(startingEach: ranges, from: source, held: held,
                                              keepingMedia: wanted.count <= Self.mediaKeepingReads, diagnostics: &diagnostics) else {
            throw MP4Error(.malformed, path: "sidx", offset: ranges[0].lowerBound,
                           "a subsegment the segment index lists does not start with a moof that fits in it")
        }
        if read.count + wanted.count < index.subsegments.count,
           !found.moofs.allSatisfy({ Self.givesDecodeTime($0, trackID: index.trackID) }) {
            return try await readingIndexedFragments(Array(index.subsegments.indices), of: movie, in: source, held: held)
        }
        parts.fragments = (parts.fragments + found.moofs).sorted { $0.header.offset < $1.header.offset }
        parts.diagnostics += diagnostics
        let more = try Movie(parts: parts, limits: options.limits, fragmentIndex: index,
                             readSubsegments: read.union(wanted).sorted())
        return Result(movie: more, reads: found.reads, fileLength: unchanged.fileLength,
                      topLevelBoxes: found.moofs.map(\.header), heldBytes: found.media, indexBytes: found.moofBytes)
    }

    /// Most moofs read at once whose media bytes are kept (a thumbnail's one to three, not a whole file's).
    static let mediaKeepingReads = 4

    /// Whether every traf of `trackID` in `moof` carries a tfdt (moofs without the track's samples need none).
    private static func givesDecodeTime(_ moof: ContainerBox, trackID: UInt32) -> Bool {
        moof.containers("traf").allSatisfy { traf in
            traf.first(TrackFragmentHeaderBox.self)?.trackID != trackID
                || traf.first(TrackFragmentBaseMediaDecodeTimeBox.self) != nil
        }
    }
}
