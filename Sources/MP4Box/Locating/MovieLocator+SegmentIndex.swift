extension MovieLocator {
    /// The movie fragments a segment index points at, read with one concurrent batch of small reads instead of
    /// one read per fragment in file order.
    ///
    /// Each subsegment starts with its moof (`readMoofs(startingEach:from:held:diagnostics:)`), and the boxes after
    /// the moof must end exactly where the subsegment does, as a walk of the boxes would go. Returns the moofs in file
    /// order and the offset just past the last subsegment, or nil when the index does not describe plain media
    /// subsegments that start with a moof, or when its sizes cannot be seen to land on the boxes that follow (the
    /// caller then walks the boxes as usual, so the movie is the same whatever the first read held).
    func readFragments(indexedBy sidx: SegmentIndexBox, window: inout ReadWindow, supplied: inout SuppliedBytes,
                       diagnostics: inout [ParseDiagnostic]) throws -> (fragments: [ContainerBox], bytes: HeldBytes, end: UInt64)? {
        guard !sidx.references.isEmpty,
              sidx.references.allSatisfy({ !$0.referencesIndex && $0.referencedSize > 0 }),
              sidx.references.count <= options.limits.maximumFragmentCount else { return nil }
        guard let starts = sidx.subsegments, let last = starts.last else { return nil }
        if let length = window.length, last.offset + last.size > length { return nil }
        let ranges = starts.map { $0.offset..<($0.offset + $0.size) }
        let held = window.held
        guard let read = try readMoofs(startingEach: ranges, held: held, supplied: &supplied,
                                       diagnostics: &diagnostics) else { return nil }
        for (index, moof) in read.moofs.enumerated() {
            guard let moofEnd = moof.header.endOffset,
                  mediaBoxesEnd(at: moofEnd, exactlyAt: ranges[index].upperBound, given: read.following[index])
            else { return nil }
        }
        for record in read.reads {
            window.record(range: record.range, byteCount: record.byteCount)
        }
        return (read.moofs, read.moofBytes, last.offset + last.size)
    }

    /// The moofs that start each of `subsegments` (byte ranges), in their order, with their bytes, the reads made,
    /// up to `followingSize` bytes after each moof (the header of the box after it, when the bytes reached it) and,
    /// when `keepingMedia`, the bytes they brought past the moofs (the start of each subsegment's media data); nil when
    /// one does not start with a moof that fits in it.
    ///
    /// The first `fragmentProbeSize` bytes of every subsegment are read in one batch (`ByteRequest.ranges`: one
    /// request where the transport can ask for several ranges; a probe inside `held` costs no read), then the rest of
    /// every moof longer than its probe in a second batch: two requests at most, whatever the number of moofs.
    func readMoofs(startingEach subsegments: [Range<UInt64>], held: HeldBytes, supplied: inout SuppliedBytes,
                   keepingMedia: Bool = false, diagnostics: inout [ParseDiagnostic]) throws -> (moofs: [ContainerBox], moofBytes: HeldBytes, reads: [Read], media: HeldBytes, following: [[UInt8]])? {
        let probe = max(64, options.fragmentProbeSize)
        let ranges = subsegments.map { $0.lowerBound..<($0.lowerBound + min(probe, UInt64($0.count))) }
        let kept = ranges.indices.map { index in
            held.bytes(ranges[index]) ?? heldMoof(at: ranges[index].lowerBound, in: subsegments[index], held: held)
        }
        let missing = ranges.indices.filter { kept[$0] == nil }
        let readHere = Set(missing)
        let fetched = try supplied.bytes(ranges: missing.map { ranges[$0] })
        var probes = kept.map { $0 ?? [] }
        var reads: [Read] = []
        for (position, index) in missing.enumerated() {
            probes[index] = fetched[position]
            reads.append(Read(range: ranges[index], byteCount: fetched[position].count))
        }
        // Each probe must start with a moof that fits in its subsegment; the rest of a longer one is read after.
        var headers: [BoxHeader] = []
        var rests: [(index: Int, range: Range<UInt64>)] = []
        for (index, bytes) in probes.enumerated() {
            let available = UInt64(subsegments[index].count)
            var reader = BoxReader(bytes: bytes, fileOffset: ranges[index].lowerBound, limits: options.limits)
            guard let header = try? BoxHeader.read(from: &reader, available: available), header.type == "moof",
                  let size = header.size, size <= available else { return nil }
            guard size <= options.limits.maximumIndexBoxSize else {
                throw MP4Error(.limitExceeded, path: "moof", offset: header.offset,
                               "box size \(size) exceeds the limit of \(options.limits.maximumIndexBoxSize)")
            }
            if UInt64(bytes.count) < size {
                // A probe shorter than asked for stopped at the end of the file.
                guard UInt64(bytes.count) == UInt64(ranges[index].count) else {
                    throw MP4Error(.needMoreBytes, path: "moof", offset: ranges[index].lowerBound + UInt64(bytes.count),
                                   "file ends inside moof")
                }
                // The rest of the moof, and the header after it in the same read when the subsegment holds one.
                let moofEnd = ranges[index].lowerBound + size
                rests.append((index, ranges[index].upperBound..<min(moofEnd + Self.followingSize, subsegments[index].upperBound)))
            }
            headers.append(header)
        }
        let completions = try supplied.bytes(ranges: rests.map(\.range))
        var completion: [Int: (range: Range<UInt64>, bytes: [UInt8])] = [:]
        for (position, rest) in rests.enumerated() {
            completion[rest.index] = (rest.range, completions[position])
            reads.append(Read(range: rest.range, byteCount: completions[position].count))
        }
        var moofs: [ContainerBox] = []
        var media = HeldBytes()
        var moofBytes = HeldBytes()
        var following: [[UInt8]] = []
        for (index, header) in headers.enumerated() {
            let size = header.size ?? 0
            var bytesOfMoof = probes[index]
            if let (rest, more) = completion[index] {
                guard UInt64(more.count) >= header.offset + size - rest.lowerBound else {
                    throw MP4Error(.needMoreBytes, path: "moof", offset: rest.lowerBound, "file ends inside moof")
                }
                bytesOfMoof += more
            } else if keepingMedia, UInt64(bytesOfMoof.count) > size, readHere.contains(index) {
                media.insert(Array(bytesOfMoof[Int(size)...]), at: header.offset + size)
            }
            let whole = Array(bytesOfMoof.prefix(Int(size)))
            following.append(Array(bytesOfMoof.dropFirst(Int(size)).prefix(Int(Self.followingSize))))
            let box = try MovieParser.parseTopLevelBox(bytes: whole, fileOffset: header.offset,
                                                       limits: options.limits, diagnostics: &diagnostics)
            moofBytes.insert(whole, at: header.offset)
            guard let moof = box as? ContainerBox else { return nil }
            moofs.append(moof)
        }
        return (moofs, moofBytes, reads, media, following)
    }

    /// How many bytes after a moof are kept to read the header of the box that follows it (a largesize header).
    static let followingSize: UInt64 = 16

    /// The held bytes from `start`, when they hold a whole moof there and the header after it (or the rest of the
    /// `subsegment`): as good as a probe, though shorter (a stream segment's head read holds its first moof).
    func heldMoof(at start: UInt64, in subsegment: Range<UInt64>, held: HeldBytes) -> [UInt8]? {
        let prefix = held.prefix(of: start..<subsegment.upperBound)
        var reader = BoxReader(bytes: prefix, fileOffset: start, limits: options.limits)
        guard let header = try? BoxHeader.read(from: &reader, available: UInt64(subsegment.count)), header.type == "moof",
              let size = header.size, size <= UInt64(subsegment.count) else { return nil }
        let needed = min(size.saturatingAdd(Self.followingSize), UInt64(subsegment.count))
        return UInt64(prefix.count) >= needed ? prefix : nil
    }

    /// Whether the boxes from `start` (the end of a moof) end exactly at `end` (the end of its subsegment), as far as
    /// `bytes` (the bytes at `start`) show: true when `start` is `end`, or when the box there ends exactly at `end`
    /// (the subsegment's mdat); false when that box runs past `end`, stops short of it, or its header is not in `bytes`.
    /// A box of size 0 runs to the end of the file, not of the subsegment, so it is never seen to land (the walk reads it).
    func mediaBoxesEnd(at start: UInt64, exactlyAt end: UInt64, given bytes: [UInt8]) -> Bool {
        if start == end { return true }
        guard start < end, let size = Self.header(in: bytes, at: start, available: nil, limits: options.limits)?.size
        else { return false }
        return size == end - start
    }
}
