/// Reads Clusters forward from a file offset, in pieces as they arrive, and keeps the frames of one track: the
/// Cluster's Timestamp, SimpleBlocks and BlockGroups (a ReferenceBlock makes a frame not a keyframe), lacing,
/// Clusters of unknown size (ended by the next element that belongs to the Segment), and what else lies between them
/// skipped as it passes without being held. Sans I/O: `append(_:)` bytes, read `frames`; `neededEnd` says where the
/// element being read ends, so a reader can ask for exactly the rest of a block.
///
/// It may also start at a block inside a Cluster (a cue's CueRelativePosition) when given the Cluster's Timestamp.
public struct MatroskaClusterReader: Sendable {
    /// The track whose frames are kept.
    public let track: MatroskaTrack
    /// The file's TimestampScale (nanoseconds per timestamp unit).
    public let timestampScale: UInt64
    /// Caps.
    public let limits: MatroskaLimits
    /// The frames read, in file (decoding) order.
    public private(set) var frames: [MatroskaFrame] = []
    /// The file offset of the next byte `append(_:)` takes.
    public private(set) var position: UInt64
    /// Whether `finish()` was called.
    public private(set) var isFinished = false

    private var buffer: [UInt8] = []
    /// The file offset of `buffer[0]`.
    private var bufferOffset: UInt64
    /// Bytes still to drop of an element skipped.
    private var skipping: UInt64 = 0
    private var clusterTimestamp: Int64?
    private var clusterEnd: UInt64?
    private var inCluster = false
    /// Where the block whose header is read but whose data is not ends, when that block may be wanted (a keyframe, or
    /// any frame after one): a reader asks for exactly the rest of it. Nil for a frame before the first keyframe.
    public private(set) var neededEnd: UInt64?

    /// A reader from file offset `start` (a Cluster's start; or a block's, with its Cluster's `clusterTimestamp`).
    public init(track: MatroskaTrack, timestampScale: UInt64, start: UInt64, clusterTimestamp: Int64? = nil,
                limits: MatroskaLimits = MatroskaLimits()) {
        self.track = track
        self.timestampScale = max(1, timestampScale)
        self.limits = limits
        position = start
        bufferOffset = start
        if let clusterTimestamp {
            self.clusterTimestamp = clusterTimestamp
            inCluster = true
        }
    }

    /// The frames whose block has been read whole, from the first keyframe on.
    public var framesFromKeyframe: ArraySlice<MatroskaFrame> {
        guard let first = frames.firstIndex(where: \.isKeyframe) else { return [] }
        return frames[first...]
    }

    /// Takes the next bytes of the file.
    /// - Throws: `MatroskaError`: `malformed` (a Cluster without a Timestamp before its blocks, a block that does not
    ///   fit, an element that cannot be read), `limitExceeded` (a block or the frames held past `limits`).
    public mutating func append(_ piece: ArraySlice<UInt8>) throws(MatroskaError) {
        guard !isFinished else { return }
        var piece = piece
        position += UInt64(piece.count)
        if skipping > 0 {
            let dropped = min(skipping, UInt64(piece.count))
            skipping -= dropped
            bufferOffset += dropped
            piece = piece.dropFirst(Int(dropped))
        }
        buffer.append(contentsOf: piece)
        try parse()
    }

    /// Ends the data: what is left is an element cut short by the end of what was read.
    public mutating func finish() {
        isFinished = true
        buffer = []
    }

    private mutating func parse() throws(MatroskaError) {
        var start = 0
        defer {
            buffer.removeFirst(start)
            bufferOffset += UInt64(start)
        }
        neededEnd = nil
        while start < buffer.count, skipping == 0 {
            let offset = bufferOffset + UInt64(start)
            if let clusterEnd, offset >= clusterEnd { leaveCluster() }
            guard let header = try EBMLElementHeader.read(buffer[start...], at: offset, path: "Segment/Cluster") else { return }
            if header.id == MatroskaID.cluster {
                inCluster = true
                clusterTimestamp = nil
                clusterEnd = header.end
                start += header.headerLength
                continue
            }
            if inCluster, clusterEnd == nil, MatroskaID.segmentChildren.contains(header.id) { leaveCluster() }
            guard let size = header.dataSize else {
                throw MatroskaError(.malformed, path: "Segment/" + MatroskaID.name(header.id), offset: offset,
                                    "an element of unknown size where a Cluster's child or the next Cluster should be")
            }
            let isBlock = header.id == MatroskaID.simpleBlock || header.id == MatroskaID.blockGroup
            let isRead = inCluster && (isBlock || header.id == MatroskaID.timestamp)
            guard isRead else {
                // Skipped: what it holds is dropped as it comes.
                let available = UInt64(buffer.count - start)
                let total = UInt64(header.headerLength) + size
                if total <= available {
                    start += Int(total)
                } else {
                    skipping = total - available
                    start = buffer.count
                }
                continue
            }
            guard size <= UInt64(limits.maximumBlockBytes) else {
                throw MatroskaError(.limitExceeded, path: "Segment/Cluster/" + MatroskaID.name(header.id), offset: offset,
                                    "an element of \(size) bytes passes the limit of \(limits.maximumBlockBytes)")
            }
            let end = start + header.headerLength + Int(size)
            // A block of another track is dropped once its track number is known, without waiting for its data.
            if header.id == MatroskaID.simpleBlock, let number = MatroskaBlock.track(of: buffer[(start + header.headerLength)...]),
               number != track.number {
                if end <= buffer.count { start = end } else { skipping = UInt64(end - buffer.count); start = buffer.count }
                continue
            }
            guard end <= buffer.count else {
                // Worth reading exactly: a block that may be wanted (a keyframe, a BlockGroup whose ReferenceBlock comes
                // after its Block, any frame once a keyframe is read); the frames before the first keyframe are not.
                if header.id != MatroskaID.simpleBlock || frames.contains(where: \.isKeyframe)
                    || MatroskaBlock.keyframeFlag(of: buffer[(start + header.headerLength)...]) != false {
                    neededEnd = header.end
                }
                return
            }
            let data = buffer[(start + header.headerLength) ..< end]
            switch header.id {
            case MatroskaID.timestamp:
                clusterTimestamp = Int64(clamping: try EBMLValue.unsigned(data, path: "Segment/Cluster/Timestamp", offset: offset))
            case MatroskaID.simpleBlock:
                try keep(data, simple: true, referenced: false, header: header)
            default:
                try readGroup(EBMLElement(header: header, data: data, path: "Segment/Cluster/BlockGroup"))
            }
            start = end
        }
    }

    private mutating func leaveCluster() {
        inCluster = false
        clusterEnd = nil
        clusterTimestamp = nil
    }

    private mutating func readGroup(_ group: EBMLElement) throws(MatroskaError) {
        var block: EBMLElement?
        var referenced = false
        var alpha: [UInt8]?
        for child in try group.children() {
            if child.id == MatroskaID.block { block = child }
            if child.id == MatroskaID.referenceBlock { referenced = true }
            if child.id == MatroskaID.blockAdditions { alpha = try Self.alpha(in: child) }
        }
        guard let block else { throw group.error("a BlockGroup without a Block") }
        try keep(block.data, simple: false, referenced: referenced, header: group.header, alpha: alpha)
    }

    /// The BlockAdditional of BlockAddID 1 (the default) in `additions`: a VP8 or VP9 frame's alpha plane, coded as
    /// a picture of its own, where the track's AlphaMode is 1.
    private static func alpha(in additions: EBMLElement) throws(MatroskaError) -> [UInt8]? {
        for more in try additions.children() where more.id == MatroskaID.blockMore {
            var id: UInt64 = 1
            var data: ArraySlice<UInt8>?
            for child in try more.children() {
                if child.id == MatroskaID.blockAddID { id = try child.unsigned() }
                if child.id == MatroskaID.blockAdditional { data = child.data }
            }
            if id == 1, let data, !data.isEmpty { return Array(data) }
        }
        return nil
    }

    private mutating func keep(_ data: ArraySlice<UInt8>, simple: Bool, referenced: Bool, header: EBMLElementHeader,
                               alpha: [UInt8]? = nil) throws(MatroskaError) {
        let path = "Segment/Cluster/" + MatroskaID.name(header.id)
        guard MatroskaBlock.track(of: data) == track.number else { return }
        guard let clusterTimestamp else {
            throw MatroskaError(.malformed, path: path, offset: header.offset, "a block before its Cluster's Timestamp")
        }
        let block = try MatroskaBlock(data, simple: simple, offset: header.offset, path: path, limits: limits)
        let frameUnits = track.frameDuration(timestampScale: timestampScale) ?? 0
        for (index, range) in block.frames.enumerated() {
            guard frames.count < limits.maximumFrames else {
                throw MatroskaError(.limitExceeded, path: path, offset: header.offset, "more than \(limits.maximumFrames) frames held")
            }
            let base = data.startIndex
            let timestamp = clusterTimestamp.addingReportingOverflow(Int64(block.relativeTimestamp)).partialValue
            frames.append(MatroskaFrame(
                timestamp: index == 0 || frameUnits == 0 ? timestamp : timestamp &+ Int64(index) &* frameUnits,
                isKeyframe: simple ? block.isKeyframe : !referenced,
                data: track.strippedHeader + data[(base + range.lowerBound) ..< (base + range.upperBound)],
                blockOffset: header.offset, blockEnd: header.end ?? header.dataOffset,
                alpha: block.frames.count == 1 && track.video?.alphaMode == 1 ? alpha : nil))
        }
    }
}
