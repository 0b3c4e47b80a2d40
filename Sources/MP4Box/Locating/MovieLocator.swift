/// Finds and parses a movie's index (moov, and for fragmented files the moof, sidx and mfra boxes) with few reads.
///
/// It asks for the head and the tail of the file together (one request where the
/// transport can ask for both), walks the top-level box headers, jumps over mdat by its size and asks
/// for moov whole: a moov inside either end costs no further read, and one
/// longer than the end it is in costs one read of what the end lacks. The media
/// bytes read on the way are kept (`Result.heldBytes`) for samples to be taken
/// from. Every read is recorded, so callers and tests can see what the index cost.
///
/// It does no I/O (an `IndexReader`): `next()` says which bytes it needs and
/// `receive(_:for:knownLength:)` takes them, so the same walk runs over any
/// transport, or from memory; `locate(in:)` runs it over a `ByteSource`.
public struct MovieLocator: IndexReader {
    /// How the locator reads.
    public struct Options: Sendable {
        /// Bytes of the first read from the start of the file: a faststart file whose moov fits here costs no
        /// further read for its index. 80 KiB, with `tailSize`, by `Benchmarks/harness/first-read.py`: it covers the
        /// moov of a minute of 1080p30 video with AAC (66 KB) in either layout, and over the benchmark media costs
        /// the least time past the network bound at 50 ms and 50 Mbit/s of the sizes tried (see Benchmarks/README.md, "How few bytes").
        public var headSize: Int = 80 * 1024
        /// Bytes of the first read from the end of the file, asked for together with the head (one request where
        /// the transport can ask for both): a file whose moov is at the end and fits here (phones'
        /// usual layout) costs no further read for its index either. 0 reads the head alone, and a moov after mdat
        /// costs a second read.
        public var tailSize: UInt64 = 80 * 1024
        /// When moov is after mdat and at most this many bytes follow mdat, they are read in one go.
        public var tailReadLimit: UInt64 = 16 << 20
        /// Which movie fragments (moof boxes) of a fragmented file to read.
        public var fragmentReading: FragmentReading = .all
        /// Bytes read at the start of each fragment a segment index (sidx) points at, to get its moof.
        public var fragmentProbeSize: UInt64 = 16 * 1024
        /// Read only the video tracks' boxes of a large moov (audio, text and other tracks are skipped unread).
        /// The movie then lists only its video tracks.
        public var readsOnlyVideoTracks: Bool = false
        /// With `readsOnlyVideoTracks`, the moov size from which tracks are skipped (smaller ones are read whole).
        public var partialMoovThreshold: UInt64 = 256 * 1024
        /// Bytes read at the start of each track to find its handler (and read with the track before it).
        public var trackProbeSize: UInt64 = 4096
        /// The fewest bytes a read of moov's children asks for (or what is left of moov); each next read of that walk
        /// asks for at least twice the last, so that a moov of many tiny boxes costs a few reads, not one each.
        /// 16 KiB.
        public var minimumWalkRead: UInt64 = 16 * 1024
        /// Whether the result keeps the media bytes read on the way (`Result.heldBytes`); off when no sample will be
        /// taken from them (`MovieParser.parse(fileBytes:)`, whose caller holds the file).
        public var keepsHeldBytes = true
        /// Whether the file's segment index (sidx) is known to index all its media, as a DASH SegmentBase
        /// Representation's `indexRange` says: with `.onDemand`, whatever follows its last subsegment (an mfra) is not
        /// looked at, so no read of the file's end is needed to leave the fragments for later.
        public var segmentIndexCoversMedia = false
        /// Parser limits.
        public var limits = ParseLimits()

        /// The defaults, fragments read as `fragmentReading` says.
        public init(fragmentReading: FragmentReading = .all) {
            self.fragmentReading = fragmentReading
        }
    }

    /// Which movie fragments the locator reads.
    public enum FragmentReading: Sendable {
        /// Every moof: the tracks' sample tables are complete.
        case all
        /// When a segment index (sidx) of the video track lists the fragments, none: the movie comes back with its
        /// `fragmentIndex`, and `readingFragments(_:of:in:held:)` reads the ones a time needs (one or two moofs
        /// for a thumbnail instead of all of them). Without such an index, every moof.
        case onDemand
        /// None: the tracks hold moov's samples only.
        case none
    }

    /// One read the locator made.
    public struct Read: Sendable, Equatable {
        /// The range asked for.
        public var range: Range<UInt64>
        /// The bytes that came back.
        public var byteCount: Int
    }

    /// A located movie and what finding it cost.
    public struct Result: Sendable {
        /// The movie.
        public var movie: Movie
        /// Every read, in order.
        public var reads: [Read]
        /// The file length, if it became known.
        public var fileLength: UInt64?
        /// Headers of the top-level boxes seen, in file order.
        public var topLevelBoxes: [BoxHeader]
        /// What was read besides the index boxes (media data in the head or the tail), for samples to be taken from
        /// without reading them again (`SampleFetcher` in `Thumbs` does).
        public var heldBytes: HeldBytes

        /// The bytes of the index boxes read whole (ftyp, styp, moov, sidx, moof, mfra), at their file offsets: what
        /// `MovieParser.parse(indexBoxes:fragmentsOnDemand:limits:)` makes the movie again from, without the file
        /// (for an index kept on disk). Empty when moov was read in part (`readsOnlyVideoTracks`).
        public var indexBytes = HeldBytes()

        /// Total bytes read.
        public var bytesRead: Int { reads.reduce(0) { $0 + $1.byteCount } }
    }

    /// The options.
    public var options: Options
    /// Where the walk over the top-level boxes is.
    private var walk: Walk
    /// The result, once found.
    private var located: Result?

    /// What the walk has found so far.
    private struct Walk: Sendable {
        var window: ReadWindow
        /// Answers to the batches of ranges of the step under way.
        var supplied = SuppliedBytes()
        /// An answer that did not fit its request: the walk ends with it.
        var failure: MP4Error?
        var parts = TopLevelBoxes()
        var diagnostics: [ParseDiagnostic] = []
        /// The offset of the next top-level box.
        var position: UInt64 = 0
        var fragmentIndex: FragmentIndex?
        var indexBytes = HeldBytes()
        /// Whether `indexBytes` holds the whole index (not so when moov was read in part).
        var indexIsWhole = true
        /// A moov being read child by child (`readsOnlyVideoTracks`).
        var partialMoov: PartialMoov?
        /// A segment index whose moofs are read in one batch by the next step.
        var segmentIndexToFollow: SegmentIndexBox?
        var finished = false

        /// What a step may not change before its last read: the walk's place and everything it found.
        var shape: [UInt64] {
            [position, UInt64(parts.headers.count), UInt64(parts.fragments.count), UInt64(diagnostics.count),
             UInt64(indexBytes.spans.count), UInt64(partialMoov?.children.count ?? 0), finished ? 1 : 0]
        }
    }

    /// A locator with `options`, for a file whose length is `knownLength` when the source knows it before a read.
    public init(options: Options = Options(), knownLength: UInt64? = nil) {
        self.options = options
        walk = Walk(window: ReadWindow(limits: options.limits, length: knownLength))
    }

    /// The bytes needed next, or the located movie.
    ///
    /// Each step (the file's ends, then one top-level box, one child of a moov read in part, or the moofs a segment
    /// index points at) makes its reads before it changes anything else: one that lacks bytes stops with the request,
    /// the answer is put in place, and the step runs again from the start and finds it. So the walk costs work in
    /// proportion to the boxes it reads, however many requests a step makes.
    /// - Throws: `MP4Error` (`notAMovie` when the first box is not one an MP4 or QuickTime file starts with,
    ///   `notFound` when there is no moov, `needMoreBytes` when the file ends inside a box, `malformed`,
    ///   `unsupported`, `limitExceeded`, `readFailed` for an answer that does not fit its request).
    public mutating func next() throws(MP4Error) -> IndexReaderStep<Result> {
        if let located { return .done(located) }
        if let failure = walk.failure { throw failure }
        while !walk.finished {
            // The walk is moved out and back, so that what a step adds to it is never copied.
            var current = Walk(window: ReadWindow(limits: options.limits, length: nil))
            swap(&current, &walk)
            current.supplied.rewind()
            let before = current.shape
            let outcome = Swift.Result { () throws(MP4Error) in try runStep { try step(&current) } }
            walk = current
            switch outcome {
            case .failure(let error):
                walk.failure = error
                throw error
            case .success(.read(let request)):
                assert(walk.shape == before, "a step changed the walk before its last read")
                return .read(request)
            case .success(.done):
                walk.supplied.removeAll()
            }
        }
        let result = try finish(walk)
        located = result
        return .done(result)
    }

    public mutating func receive(_ answer: ByteAnswer, for request: ByteRequest, knownLength: UInt64?) {
        do {
            switch request {
            case .ends, .range:
                try walk.window.receive(answer, for: request, knownLength: knownLength)
            case .ranges(let ranges):
                try walk.supplied.add(answer, for: ranges)
            }
        } catch {
            walk.failure = error
        }
    }

    /// One step of the walk. Each rule it follows is one of the functions below.
    private func step(_ walk: inout Walk) throws {
        try walk.window.loadEnds(head: UInt64(options.headSize), tail: options.tailSize)
        if walk.partialMoov != nil { return try readNextMoovChild(&walk) }
        if let sidx = walk.segmentIndexToFollow { return try readFragments(indexedBy: sidx, &walk) }
        // A segment index known to index the media, its first subsegment here: the fragments are left for later
        // without reading the next box's header.
        if options.segmentIndexCoversMedia, !walk.parts.segmentIndexes.isEmpty, try leavesFragmentsForLater(at: nil, &walk) {
            return
        }
        guard let header = try nextHeader(&walk) else {
            walk.finished = true
            return
        }
        if walk.position == 0 { try Self.checkFirstBox(header) }
        if try leavesFragmentsForLater(at: header, &walk) { return }
        guard try isInFile(header, &walk) else { return }
        if Self.indexTypes.contains(header.type) {
            try readIndexBox(header, &walk)
        } else {
            walk.parts.headers.append(header)
            try moveOn(past: header, &walk)
        }
    }

    /// The header of the box at `walk.position`, from the bytes held or read with `headSize` bytes after it (past mdat
    /// with no moov yet, everything to the end when it is at most `tailReadLimit` bytes); nil at
    /// the end of the file, and after the last whole box when fewer bytes than a header follow it (a cut or padded
    /// file: the index before them is whole, so it is kept, as players do, whatever the first read's size was).
    /// - Throws: `needMoreBytes` for such bytes before moov, `malformed` for a header that cannot be.
    private func nextHeader(_ walk: inout Walk) throws -> BoxHeader? {
        let position = walk.position
        if let length = walk.window.length, position >= length { return nil }
        if walk.parts.moov == nil, position > 0, !walk.window.contains(position..<position + 8), let length = walk.window.length,
           length - position <= options.tailReadLimit {
            // Past mdat with no moov yet: read everything up to the end in one go.
            _ = try walk.window.bytes(position..<length, allowShort: true, readAhead: 0)
        }
        let available = walk.window.length.map { $0 - position }
        if let cached = walk.window.cachedBytes(from: position, maximum: BoxHeader.maximumSize),
           let header = Self.header(in: cached, at: position, available: available, limits: options.limits) {
            return header
        }
        guard let bytes = try walk.window.bytes(position..<position + UInt64(BoxHeader.maximumSize), allowShort: true,
                                                readAhead: UInt64(options.headSize)),
              bytes.count >= 8 else {
            if let length = walk.window.length, position < length {
                guard walk.parts.moov != nil else {
                    throw MP4Error(.needMoreBytes, path: "", offset: position, "file ends inside a box header")
                }
                walk.diagnostics.append(ParseDiagnostic(path: "", offset: position,
                                                        detail: "\(length - position) bytes at the end, fewer than a box header, ignored"))
            }
            return nil
        }
        var reader = BoxReader(bytes: bytes, fileOffset: position, limits: options.limits)
        return try BoxHeader.read(from: &reader, available: available)
    }

    /// Refuses a file whose first box is not one an MP4 or QuickTime file starts with (`firstBoxTypes`).
    private static func checkFirstBox(_ header: BoxHeader) throws(MP4Error) {
        guard firstBoxTypes.contains(header.type) else {
            throw MP4Error(.notAMovie, path: "", offset: 0,
                           "not an MP4 or QuickTime file: its first box, \(header.type.quoted), is not one such a file starts with")
        }
    }

    /// With `fragmentReading` `.onDemand`, whether the walk stops at the first moof (`header`; nil: at the position
    /// reached, for a segment index known to cover the media) because the video track's segment index lists every
    /// fragment from it on (the moofs are read when a time needs them).
    private func leavesFragmentsForLater(at header: BoxHeader?, _ walk: inout Walk) throws -> Bool {
        guard header.map({ $0.type == "moof" }) ?? true, options.fragmentReading == .onDemand, walk.parts.fragments.isEmpty,
              let index = try Self.fragmentIndex(of: walk.parts, firstMoofAt: walk.position, window: walk.window,
                                                 coversMedia: options.segmentIndexCoversMedia,
                                                 limits: options.limits) else { return false }
        walk.fragmentIndex = index
        walk.finished = true
        return true
    }

    /// Whether the box ends inside the file. A box cut short in the media data after moov (a partial download, an
    /// I-frame-only byte range) ends the walk with the index kept, as players do: samples past the end fail when they
    /// are read.
    /// - Throws: `malformed` for a size that ends past the largest file offset (checked whether or not the length is
    ///   known: a server may answer `bytes 0-N/*`), `needMoreBytes` for any other box past the end.
    private func isInFile(_ header: BoxHeader, _ walk: inout Walk) throws -> Bool {
        guard let size = header.size else { return true }
        let (end, overflow) = walk.position.addingReportingOverflow(size)
        if overflow || end > .maximumFileOffset {
            throw MP4Error(.malformed, path: header.type.description, offset: walk.position,
                           "box size \(size) ends past the largest file offset")
        }
        guard let length = walk.window.length, end > length else { return true }
        let detail = "box size \(size) runs past the end of the file (\(length) bytes)"
        guard walk.parts.moov != nil, !Self.indexTypes.contains(header.type) else {
            throw MP4Error(.needMoreBytes, path: header.type.description, offset: walk.position, detail)
        }
        walk.diagnostics.append(ParseDiagnostic(path: header.type.description, offset: walk.position, detail: detail))
        walk.finished = true
        return false
    }

    /// Reads an index box whole (or only the video tracks of a large moov) and parses it; after a segment index of a
    /// fragmented moov, every moof it points at in one batch.
    private func readIndexBox(_ header: BoxHeader, _ walk: inout Walk) throws {
        let position = walk.position
        guard let size = header.size else {
            throw MP4Error(.unsupported, path: header.type.description, offset: position,
                           "index box runs to the end of a file of unknown length")
        }
        guard size <= options.limits.maximumIndexBoxSize else {
            throw MP4Error(.limitExceeded, path: header.type.description, offset: position,
                           "box size \(size) exceeds the limit of \(options.limits.maximumIndexBoxSize)")
        }
        if header.type == "moov", options.readsOnlyVideoTracks, size > options.partialMoovThreshold,
           !walk.window.contains(position..<position + size) {
            walk.partialMoov = try PartialMoov(header)  // read child by child in the steps that follow
            return
        }
        guard let bytes = try walk.window.bytes(position..<position + size, allowShort: false, readAhead: 0) else {
            throw MP4Error(.needMoreBytes, path: header.type.description, offset: position,
                           "box size \(size) runs past the end of the file")
        }
        let box = try MovieParser.parseTopLevelBox(bytes: bytes, fileOffset: position, limits: options.limits,
                                                   diagnostics: &walk.diagnostics)
        try walk.parts.add(box, limits: options.limits)
        walk.indexBytes.insert(bytes, at: position)
        if let sidx = box as? SegmentIndexBox, followsInOneBatch(sidx, walk) { walk.segmentIndexToFollow = sidx }
        try moveOn(past: header, &walk)
    }

    /// The next child of the moov being read in part; once its last is read, the moov joins the index and the walk
    /// moves past it.
    private func readNextMoovChild(_ walk: inout Walk) throws {
        guard let position = walk.partialMoov?.position, let end = walk.partialMoov?.end,
              let count = walk.partialMoov?.children.count else { return }
        let (child, childEnd) = try readChild(at: position, of: end, after: count,
                                              trackCount: walk.partialMoov?.trackCount ?? 0,
                                              window: &walk.window, diagnostics: &walk.diagnostics)
        walk.partialMoov?.children.append(child)
        if child.header.type == "trak" { walk.partialMoov?.trackCount += 1 }
        walk.partialMoov?.position = childEnd
        guard let moov = walk.partialMoov, childEnd >= moov.end else { return }
        walk.partialMoov = nil
        try walk.parts.add(ContainerBox(header: moov.header, children: moov.children), limits: options.limits)
        walk.indexIsWhole = false
        try moveOn(past: moov.header, &walk)
    }

    /// Whether the moofs `sidx` points at are read in one batch by the next step: after the first segment index of a
    /// fragmented moov, with every moof wanted and none read yet, when they are not held already.
    private func followsInOneBatch(_ sidx: SegmentIndexBox, _ walk: Walk) -> Bool {
        guard walk.parts.fragments.isEmpty, options.fragmentReading == .all,
              let moov = walk.parts.moov, moov.container("mvex") != nil, walk.parts.segmentIndexes.count == 1,
              let sidxEnd = sidx.header.endOffset, let last = sidx.subsegments?.last else { return false }
        return !walk.window.contains(sidxEnd..<last.offset + last.size)
    }

    /// Reads the moofs `sidx` points at in one batch and moves past them when the index describes them plainly (else
    /// the walk goes on box by box from the end of the sidx).
    private func readFragments(indexedBy sidx: SegmentIndexBox, _ walk: inout Walk) throws {
        let indexed = try readFragments(indexedBy: sidx, window: &walk.window, supplied: &walk.supplied,
                                        diagnostics: &walk.diagnostics)
        walk.segmentIndexToFollow = nil
        guard let indexed else { return }
        for fragment in indexed.fragments {
            try walk.parts.add(fragment, limits: options.limits)
        }
        for span in indexed.bytes.spans { walk.indexBytes.insert(span.bytes, at: span.offset) }
        walk.position = indexed.end
    }

    /// Moves to the box after `header`'s. The walk ends after a box that runs to the end of the file, and after moov
    /// unless the movie is fragmented and its fragments are wanted.
    private func moveOn(past header: BoxHeader, _ walk: inout Walk) throws {
        guard let size = header.size else {
            walk.finished = true
            return
        }
        walk.position += size
        if let moov = walk.parts.moov, moov.container("mvex") == nil || options.fragmentReading == .none {
            walk.finished = true
        }
    }

    /// The movie the walk found and what finding it cost.
    private func finish(_ walk: Walk) throws(MP4Error) -> Result {
        var parts = walk.parts
        parts.diagnostics.append(contentsOf: walk.diagnostics)
        let movie = try Movie(parts: parts, limits: options.limits, fragmentIndex: walk.fragmentIndex)
        let indexRanges = parts.headers.filter { Self.indexTypes.contains($0.type) }.map { header in
            header.offset..<(header.endOffset ?? .max)
        }
        return Result(movie: movie, reads: walk.window.reads, fileLength: walk.window.length, topLevelBoxes: parts.headers,
                      heldBytes: options.keepsHeldBytes ? walk.window.held.removing(indexRanges) : HeldBytes(),
                      indexBytes: walk.indexIsWhole ? walk.indexBytes : HeldBytes())
    }

    /// The index of the fragments of `parts`' video track when its segment index lists plain media subsegments
    /// from `firstMoof` to the end of the media: to the end of the file, or to a box that ends files (mfra, free,
    /// skip) in the bytes `window` holds, or anywhere in the file when it is known to `coverMedia`. Else nil, and
    /// every moof is read: a segment's own sidx (one per segment, as DASH packagers write) covers that segment only,
    /// and a file of unknown length cannot show where it ends.
    private static func fragmentIndex(of parts: TopLevelBoxes, firstMoofAt firstMoof: UInt64, window: ReadWindow,
                                      coversMedia: Bool, limits: ParseLimits) throws(MP4Error) -> FragmentIndex? {
        guard let index = try fragmentIndex(of: parts, limits: limits), index.subsegments.first?.byteRange.lowerBound == firstMoof,
              let end = index.subsegments.last?.byteRange.upperBound else { return nil }
        if coversMedia, window.length.map({ end <= $0 }) ?? true { return index }
        guard let length = window.length, end <= length else { return nil }
        if end == length { return index }
        guard let after = window.cachedBytes(from: end, maximum: 8), after.count == 8,
              Self.trailingTypes.contains(FourCC(rawValue: after[4..<8].reduce(0) { $0 << 8 | UInt32($1) })) else { return nil }
        return index
    }

    /// The index the segment index of `parts`' video track gives, when the movie is fragmented and moov has no
    /// samples of its own (a partially fragmented file has all its fragments read).
    static func fragmentIndex(of parts: TopLevelBoxes, limits: ParseLimits) throws(MP4Error) -> FragmentIndex? {
        guard parts.moov?.container("mvex") != nil,
              let track = try Movie(parts: TopLevelBoxes(moov: parts.moov), limits: limits).primaryVideoTrack,
              track.samples.count == 0,
              let sidx = parts.segmentIndexes.first(where: { $0.referenceID == track.id }) else { return nil }
        return FragmentIndex(sidx: sidx, timescale: track.timescale, limits: limits)
    }

    /// Boxes that may follow the last fragment of a file whose sidx indexes all of them.
    static let trailingTypes: Set<FourCC> = ["mfra", "free", "skip"]

    /// The header in `bytes` at `position`, or nil when `bytes` stop inside it.
    static func header(in bytes: [UInt8], at position: UInt64, available: UInt64?, limits: ParseLimits) -> BoxHeader? {
        var reader = BoxReader(bytes: bytes, fileOffset: position, limits: limits)
        do {
            return try BoxHeader.read(from: &reader, available: available)
        } catch {
            return nil  // cut off, or malformed: the caller reads more and rethrows if still malformed
        }
    }

    /// Top-level boxes read whole.
    static let indexTypes: Set<FourCC> = ["ftyp", "styp", "moov", "moof", "sidx", "mfra"]

    /// The boxes an MP4 or QuickTime file may start with (ISO/IEC 14496-12's file-level boxes, QuickTime's `wide`,
    /// `pnot`, `PICT` and `junk`, and segment files' `styp`, `sidx`, `emsg` and `prft`). Anything else at offset 0 is
    /// not such a file: a text, an image, an encrypted blob.
    static let firstBoxTypes: Set<FourCC> = [
        "ftyp", "styp", "moov", "moof", "mdat", "mfra", "free", "skip", "wide", "junk", "pnot", "PICT", "uuid",
        "meta", "pdin", "sidx", "ssix", "emsg", "prft", "udta", "jP  ",
    ]
}
