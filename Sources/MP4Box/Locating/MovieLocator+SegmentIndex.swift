extension MovieLocator {
    /// The movie fragments a segment index points at, read with one concurrent batch of small reads instead of
    /// one read per fragment in file order.
    ///
    /// Each subsegment starts with its moof; the first `fragmentProbeSize` bytes of every subsegment are read at
    /// once (the reads are independent), and a moof larger than that is completed with one more read. Returns
    /// the moofs in file order and the offset just past the last subsegment, or nil when the index does not
    /// describe plain media subsegments that start with a moof (the caller then walks the boxes as usual).
    func readFragments(indexedBy sidx: SegmentIndexBox, source: any ByteSource, window: inout ReadWindow,
                       diagnostics: inout [ParseDiagnostic]) async throws -> (fragments: [ContainerBox], end: UInt64)? {
        guard !sidx.references.isEmpty,
              sidx.references.allSatisfy({ !$0.referencesIndex && $0.referencedSize > 0 }),
              sidx.references.count <= options.limits.maximumFragmentCount else { return nil }
        guard let starts = sidx.subsegments, let last = starts.last else { return nil }
        if let length = window.length, last.offset + last.size > length { return nil }
        let probe = max(64, options.fragmentProbeSize)
        let ranges = starts.map { $0.offset..<($0.offset + min(probe, $0.size)) }
        // Probes inside bytes already held (the tail of the first read) cost no read.
        let held: [[UInt8]?] = ranges.map { range in
            window.cachedBytes(from: range.lowerBound, maximum: range.count).flatMap { $0.count == range.count ? $0 : nil }
        }
        let missing = ranges.indices.filter { held[$0] == nil }
        let read = try await Self.readConcurrently(missing.map { ranges[$0] }, from: source)
        var probes = held.map { $0 ?? [] }
        for (position, index) in missing.enumerated() {
            probes[index] = read[position]
            window.record(range: ranges[index], byteCount: read[position].count)
        }
        var fragments: [ContainerBox] = []
        for (index, bytes) in probes.enumerated() {
            var reader = BoxReader(bytes: bytes, fileOffset: ranges[index].lowerBound, limits: options.limits)
            guard let header = try? BoxHeader.read(from: &reader, available: starts[index].size), header.type == "moof",
                  let size = header.size, size <= starts[index].size else { return nil }
            guard size <= options.limits.maximumIndexBoxSize else {
                throw MP4Error(.limitExceeded, path: "moof", offset: header.offset,
                               "box size \(size) exceeds the limit of \(options.limits.maximumIndexBoxSize)")
            }
            var moofBytes = bytes
            if UInt64(bytes.count) < size {
                let rest = ranges[index].upperBound..<(ranges[index].lowerBound + size)
                let more = try await source.read(rest)
                window.record(range: rest, byteCount: more.count)
                guard UInt64(more.count) == UInt64(rest.count) else {
                    throw MP4Error(.needMoreBytes, path: "moof", offset: rest.lowerBound, "file ends inside moof")
                }
                moofBytes += more
            }
            let box = try MovieParser.parseTopLevelBox(bytes: Array(moofBytes.prefix(Int(size))), fileOffset: header.offset,
                                                       limits: options.limits, diagnostics: &diagnostics)
            guard let moof = box as? ContainerBox else { return nil }
            fragments.append(moof)
        }
        return (fragments, last.offset + last.size)
    }

    /// Reads independent ranges at the same time (at most 16 in flight), results in the order of `ranges`.
    static func readConcurrently(_ ranges: [Range<UInt64>], from source: any ByteSource) async throws -> [[UInt8]] {
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            var results = [[UInt8]](repeating: [], count: ranges.count)
            var next = 0
            func enqueue() {
                guard next < ranges.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await source.read(ranges[index])) }
            }
            for _ in 0..<16 { enqueue() }
            while let (index, bytes) = try await group.next() {
                results[index] = bytes
                enqueue()
            }
            return results
        }
    }
}
