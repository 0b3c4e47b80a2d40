extension MovieLocator {
    /// Reads the moofs of more subsegments of a movie's `fragmentIndex`: `subsegments` are positions in
    /// `fragmentIndex.subsegments` (those read already, or out of range, are left out). The moofs are read in one
    /// concurrent batch of small reads, none for a moof inside `held` (the bytes the locator kept). The result's
    /// `heldBytes` are what those reads brought past the moofs (the start of their media data) when they are a few
    /// (`mediaKeepingReads`), its `reads` and `topLevelBoxes` the reads made and the moofs read, its `indexBytes` the
    /// moofs' bytes.
    ///
    /// A moof of the indexed track that does not give its decode time (tfdt) cannot be placed on the timeline
    /// without the ones before it: then every moof is read. Gives `movie` itself when it has no fragment index.
    public struct FragmentReader: IndexReader {
        let locator: MovieLocator
        let subsegments: [Int]
        let movie: Movie
        let held: HeldBytes
        let knownLength: UInt64?
        private var supplied = SuppliedBytes()
        private var result: Result?
        /// An answer that did not fit its request.
        private var failure: MP4Error?

        init(locator: MovieLocator, subsegments: [Int], movie: Movie, held: HeldBytes, knownLength: UInt64?) {
            self.locator = locator
            self.subsegments = subsegments
            self.movie = movie
            self.held = held
            self.knownLength = knownLength
        }

        /// The bytes needed next, or the movie with the moofs read.
        /// - Throws: `MP4Error` (`malformed` when a subsegment does not start with a moof, as the locator throws for
        ///   the moofs; `readFailed` for an answer that does not fit its request).
        public mutating func next() throws(MP4Error) -> IndexReaderStep<Result> {
            if let failure { throw failure }
            if let result { return .done(result) }
            var answers = supplied
            answers.rewind()
            let (locator, subsegments, movie, held, knownLength) = (locator, subsegments, movie, held, knownLength)
            let step = try runStep {
                try locator.readingIndexedFragments(subsegments, of: movie, held: held, knownLength: knownLength,
                                                    supplied: &answers)
            }
            if case .done(let found) = step {
                supplied.removeAll()
                result = found
            }
            return step
        }

        public mutating func receive(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?) {
            guard case .ranges(let ranges) = request else {
                failure = MP4Error(.readFailed, path: "", offset: 0, "an answer to \(request), which this reader does not ask for")
                return
            }
            do {
                try supplied.add(answer, for: ranges)
            } catch {
                failure = error
            }
        }
    }

    /// A reader of the moofs of more of `movie`'s subsegments (`FragmentReader`), in a file of `knownLength` bytes.
    public func fragmentReader(_ subsegments: [Int], of movie: Movie, held: HeldBytes = HeldBytes(),
                               knownLength: UInt64?) -> FragmentReader {
        FragmentReader(locator: self, subsegments: subsegments, movie: movie, held: held, knownLength: knownLength)
    }

    private func readingIndexedFragments(_ subsegments: [Int], of movie: Movie, held: HeldBytes, knownLength: UInt64?,
                                         supplied: inout SuppliedBytes) throws -> Result {
        let unchanged = Result(movie: movie, reads: [], fileLength: knownLength, topLevelBoxes: [], heldBytes: HeldBytes())
        guard let index = movie.fragmentIndex else { return unchanged }
        let read = Set(movie.readSubsegments)
        let wanted = Set(subsegments.filter { index.subsegments.indices.contains($0) && !read.contains($0) }).sorted()
        guard !wanted.isEmpty else { return unchanged }
        var parts = movie.parts
        var diagnostics: [ParseDiagnostic] = []
        let ranges = wanted.map { index.subsegments[$0].byteRange }
        guard let found = try readMoofs(startingEach: ranges, held: held, supplied: &supplied,
                                        keepingMedia: wanted.count <= Self.mediaKeepingReads, diagnostics: &diagnostics) else {
            throw MP4Error(.malformed, path: "sidx", offset: ranges[0].lowerBound,
                           "a subsegment the segment index lists does not start with a moof that fits in it")
        }
        if read.count + wanted.count < index.subsegments.count,
           !found.moofs.allSatisfy({ Self.givesDecodeTime($0, trackID: index.trackID) }) {
            return try readingIndexedFragments(Array(index.subsegments.indices), of: movie, held: held,
                                               knownLength: knownLength, supplied: &supplied)
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
