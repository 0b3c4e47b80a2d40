import MP4Box

extension MatroskaLocator {
    /// One pass over the bytes held: the EBML header, the Segment's top-level elements from its start as far as
    /// their headers are held, and the elements the SeekHead names. What it could not read yet is in `wanted`.
    struct Walk {
        let held: HeldBytes
        let limits: MatroskaLimits
        let length: UInt64?
        let tailOffset: UInt64?
        let guess: UInt64
        /// Ranges to read before the walk can finish.
        var wanted: [Range<UInt64>] = []

        private var docType = ""
        private var segment: EBMLElementHeader?
        private var info: EBMLElement?
        private var tracks: EBMLElement?
        private var cues: EBMLElement?
        private var firstCluster: UInt64?
        /// Where SeekHead says the elements are (file offsets), by ID.
        private var seeks: [UInt32: UInt64] = [:]
        private var seekHeadsRead: Set<UInt64> = []

        init(held: HeldBytes, limits: MatroskaLimits, length: UInt64?, tailOffset: UInt64?, guess: UInt64) {
            self.held = held
            self.limits = limits
            self.length = length
            self.tailOffset = tailOffset
            self.guess = guess
        }

        /// Headers are at most 12 bytes (a 4-byte ID and an 8-byte size).
        private static let headerBytes: UInt64 = 12

        /// The header of the element at `offset`, when held.
        private func header(at offset: UInt64, path: String) throws(MatroskaError) -> EBMLElementHeader? {
            let bytes = held.prefix(of: offset ..< offset + Self.headerBytes)
            return try EBMLElementHeader.read(bytes[...], at: offset, path: path)
        }

        /// The element at `offset` read whole when held, of at most `maximum` bytes; nil with its range (or a guess
        /// of it) in `wanted` when not.
        private mutating func element(at offset: UInt64, path: String, maximum: Int, guess: UInt64) throws(MatroskaError) -> EBMLElement? {
            guard let header = try header(at: offset, path: path) else {
                if let length, offset >= length {
                    throw MatroskaError(.malformed, path: path, offset: offset, "the element is past the file's end (\(length) bytes)")
                }
                wanted.append(offset ..< clamped(offset + guess))
                return nil
            }
            guard let size = header.dataSize else {
                throw MatroskaError(.malformed, path: path, offset: offset, "\(MatroskaID.name(header.id)) has an unknown size")
            }
            guard size <= UInt64(maximum) else {
                throw MatroskaError(.limitExceeded, path: path, offset: offset,
                                    "\(MatroskaID.name(header.id)) of \(size) bytes passes the limit of \(maximum)")
            }
            let range = offset ..< header.dataOffset + size
            guard let bytes = held.bytes(range) else {
                wanted.append(offset + UInt64(held.prefix(of: range).count) ..< range.upperBound)
                return nil
            }
            return EBMLElement(header: header, data: bytes[header.headerLength...], path: path)
        }

        private func clamped(_ end: UInt64) -> UInt64 {
            guard let length else { return end }
            return min(end, length)
        }

        mutating func walk() throws(MatroskaError) {
            guard MatroskaLocator.startsMatroska(held.prefix(of: 0 ..< 4)), let ebml = try header(at: 0, path: "EBML"),
                  ebml.id == MatroskaID.ebml else {
                throw MatroskaError(.notMatroska, offset: 0, "the file does not start with an EBML header")
            }
            guard let header = try element(at: 0, path: "EBML", maximum: 4096, guess: 4096) else {
                throw MatroskaError(.notMatroska, offset: 0, "the EBML header does not fit in the file's first bytes")
            }
            for child in try header.children() where child.id == MatroskaID.docType { docType = child.string }
            guard docType == "matroska" || docType == "webm" else {
                throw MatroskaError(.notMatroska, path: "EBML", offset: 0, "DocType \"\(docType)\" is neither matroska nor webm")
            }
            guard let end = header.header.end, let segment = try self.header(at: end, path: "Segment") else {
                throw MatroskaError(.malformed, offset: header.header.end, "no Segment header after the EBML header")
            }
            guard segment.id == MatroskaID.segment else {
                throw MatroskaError(.malformed, offset: end, "\(MatroskaID.name(segment.id)) where the Segment should start")
            }
            self.segment = segment
            try scanTopLevel(from: segment.dataOffset)
            try readSeekTargets()
        }

        /// The Segment's children from `start`, while their headers are held, up to the first Cluster.
        private mutating func scanTopLevel(from start: UInt64) throws(MatroskaError) {
            var position = start
            var steps = 0
            while steps < 64 {
                guard let header = try header(at: position, path: "Segment") else {
                    // A large element (attachments, a reserved Void) before the index elements: go on past it.
                    if seeks.isEmpty, info == nil || tracks == nil, length.map({ position + Self.headerBytes <= $0 }) ?? true {
                        wanted.append(position ..< clamped(position + guess))
                    }
                    return
                }
                steps += 1
                let path = "Segment/" + MatroskaID.name(header.id)
                switch header.id {
                case MatroskaID.cluster:
                    firstCluster = position
                    return
                case MatroskaID.seekHead:
                    if let seekHead = try element(at: position, path: path, maximum: limits.maximumHeaderElementBytes, guess: guess) {
                        try readSeekHead(seekHead)
                    }
                case MatroskaID.info:
                    info = try element(at: position, path: path, maximum: limits.maximumHeaderElementBytes, guess: guess)
                case MatroskaID.tracks:
                    tracks = try element(at: position, path: path, maximum: limits.maximumHeaderElementBytes, guess: guess)
                case MatroskaID.cues:
                    cues = try element(at: position, path: path, maximum: limits.maximumCuesBytes, guess: guess)
                default:
                    break
                }
                guard let next = header.end, next > position else { return }
                if let length, next >= length { return }
                position = next
            }
        }

        private mutating func readSeekHead(_ seekHead: EBMLElement) throws(MatroskaError) {
            guard let segment, seekHeadsRead.insert(seekHead.header.offset).inserted else { return }
            for seek in try seekHead.children() where seek.id == MatroskaID.seek {
                var id: UInt32?
                var position: UInt64?
                for child in try seek.children() {
                    if child.id == MatroskaID.seekID, child.data.count <= 4 {
                        id = UInt32(truncatingIfNeeded: try child.unsigned())
                    }
                    if child.id == MatroskaID.seekPosition { position = try child.unsigned() }
                }
                guard let id, let position else { continue }
                // A position past the file (a live muxer's placeholder, a cut file) is passed over, as players do.
                let (offset, overflow) = segment.dataOffset.addingReportingOverflow(position)
                guard !overflow, offset < UInt64(Int64.max), length.map({ offset < $0 }) ?? true else { continue }
                if seeks[id] == nil { seeks[id] = offset }
            }
        }

        /// Info, Tracks and Cues (and a second SeekHead) where the SeekHead says, when the scan did not read them.
        private mutating func readSeekTargets() throws(MatroskaError) {
            if let second = seeks[MatroskaID.seekHead], !seekHeadsRead.contains(second),
               let seekHead = try element(at: second, path: "Segment/SeekHead", maximum: limits.maximumHeaderElementBytes, guess: guess) {
                try readSeekHead(seekHead)
            }
            if info == nil, let offset = seeks[MatroskaID.info] {
                info = try element(at: offset, path: "Segment/Info", maximum: limits.maximumHeaderElementBytes, guess: guess)
            }
            if tracks == nil, let offset = seeks[MatroskaID.tracks] {
                tracks = try element(at: offset, path: "Segment/Tracks", maximum: limits.maximumHeaderElementBytes, guess: guess)
            }
            if cues == nil, let offset = seeks[MatroskaID.cues] {
                // Cues after the Clusters end near the tail: read up to it, where the tail takes over.
                var cuesGuess = guess
                if let tailOffset, offset < tailOffset { cuesGuess = max(guess, min(tailOffset - offset, UInt64(limits.maximumCuesBytes))) }
                cues = try element(at: offset, path: "Segment/Cues", maximum: limits.maximumCuesBytes, guess: min(cuesGuess, 1 << 20))
            }
            if wanted.isEmpty, info == nil || tracks == nil {
                throw MatroskaError(.malformed, path: "Segment", offset: segment?.dataOffset,
                                    "no \(info == nil ? "Info" : "Tracks") element before the first Cluster or in the SeekHead")
            }
        }

        /// The index, once nothing is wanted.
        func file(fileLength: UInt64?) throws(MatroskaError) -> MatroskaFile {
            guard let segment, let info, let tracksElement = tracks else {
                throw MatroskaError(.malformed, path: "Segment", "the index is incomplete")
            }
            var scale: UInt64 = 1_000_000
            var duration: Double?
            for child in try info.children() {
                if child.id == MatroskaID.timestampScale { scale = try child.unsigned() }
                if child.id == MatroskaID.duration { duration = try child.float() }
            }
            guard scale > 0 else { throw info.error("TimestampScale is 0") }
            var tracks: [MatroskaTrack] = []
            for entry in try tracksElement.children() where entry.id == MatroskaID.trackEntry {
                tracks.append(try MatroskaTrack(entry, limits: limits))
                guard tracks.count <= limits.maximumTrackCount else {
                    throw entry.error(.limitExceeded, "more than \(limits.maximumTrackCount) tracks")
                }
            }
            var file = MatroskaFile(docType: docType, segmentDataOffset: segment.dataOffset, segmentEnd: segment.end,
                                    timestampScale: scale, duration: duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil },
                                    tracks: tracks, cuePoints: [], firstClusterOffset: firstCluster, fileLength: fileLength)
            if let cues, let picture = file.pictureTrack {
                file.cuePoints = try CuePoint.all(in: cues, track: picture.number, limits: limits)
            }
            return file
        }
    }
}
