/// What a transport stream file's two ends say of it (sans I/O, from bytes read by the caller): how its packets lie,
/// its first program's video stream and the tables that name it, its time zero (the first picture's presentation
/// time) and where its last picture ends. A `TransportTimeSearch` over the file starts from these.
public struct TransportFileIndex: Sendable {
    /// How the packets lie, and where the first whole one starts.
    public let layout: TransportPacketLayout
    public let firstPacket: UInt64
    /// The video stream the program map names.
    public let video: TransportStreamDemuxer.VideoStream
    /// The packets from the first up to the one that completes the program map: what a demuxer reading from
    /// elsewhere in the file is given first.
    public let tables: [UInt8]
    /// The 33-bit presentation timestamp of time zero: the earliest of the pictures up to the first keyframe.
    public let origin: Int64
    /// The file's length.
    public let length: UInt64
    /// Where the last picture ends, in 90 kHz ticks from time zero (its time and one frame's): nil when the tail
    /// shows no picture.
    public let endTime: Int64?
    /// A frame's duration as the pictures read show it (the least step between their presentation times), nil when
    /// they show none.
    public let frameDuration: Int64?
    /// The parameter sets at the start of the first picture the head holds (H.264 SPS and PPS; HEVC VPS, SPS and PPS;
    /// MPEG-2 video's sequence header and extension): what tells the picture's size. Empty when the head shows none.
    public let parameterSets: [[UInt8]]
    /// The file's first and last bytes, as read.
    public let head: [UInt8]
    public let tail: [UInt8]
    public let tailOffset: UInt64

    /// Reads the ends: `head` from offset 0, `tail` from `tailOffset` (empty when the head is the whole file) of a file
    /// of `length` bytes.
    /// - Throws: `TransportStreamError`: `notTransportStream` when the head's sync bytes do not recur at a packet
    ///   size; `unsupported` when the first program has no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video; `malformed` when the head names no
    ///   video stream or holds no picture of it.
    public init(head: [UInt8], tail: [UInt8], tailOffset: UInt64, length: UInt64,
                limits: TransportStreamLimits = TransportStreamLimits()) throws(TransportStreamError) {
        guard let (layout, first) = TransportPacketLayout.detect(in: head) else {
            throw TransportStreamError(.notTransportStream, offset: 0,
                                       "not an MPEG transport stream: no sync byte recurs every 188, 192 or 204 bytes in its first \(head.count) bytes")
        }
        self.layout = layout
        firstPacket = UInt64(first)
        // The tables: packets fed one at a time until the map names the video.
        var demuxer = TransportStreamDemuxer(limits: limits, layout: layout)
        var position = first
        while demuxer.video == nil, position + layout.packetSize <= head.count {
            try demuxer.append(head[position ..< position + layout.packetSize])
            position += layout.packetSize
        }
        guard let video = demuxer.video else {
            throw TransportStreamError(.malformed, offset: UInt64(first),
                                       "no program map naming an H.264, HEVC, MPEG-2 or MPEG-4 Part 2 stream in the first \(head.count) bytes")
        }
        self.video = video
        tables = Array(head[first ..< position])
        let headPictures = TransportPictureStart.all(in: head[...], at: 0, layout: layout, pid: video.pid, codec: video.codec)
        guard let firstPicture = headPictures.first else {
            throw TransportStreamError(.malformed, offset: UInt64(first), pid: video.pid,
                                       "no picture of the video stream starts in the first \(head.count) bytes")
        }
        let throughKeyframe = headPictures.prefix { !$0.isKeyframe }.count
        let leading = headPictures.prefix(min(headPictures.count, throughKeyframe + 1))
        // The earliest, as times go around the first picture's (a wrap between them is taken as one).
        let base = firstPicture.presentationTimestamp
        let earliest = leading.map { TransportTimeSearch.ticks($0.presentationTimestamp, from: base) }.min() ?? 0
        origin = (base + earliest) & (TransportTimeSearch.period - 1)
        let tailPictures = TransportPictureStart.all(in: tail[...], at: tailOffset, layout: layout, pid: video.pid, codec: video.codec)
        let step = Self.leastStep(tailPictures.count > 1 ? tailPictures : headPictures)
        frameDuration = step
        let origin = origin
        let last = (tail.isEmpty ? headPictures : tailPictures).map { TransportTimeSearch.ticks($0.presentationTimestamp, from: origin) }.max()
        endTime = last.map { $0 + (step ?? 0) }
        parameterSets = Self.firstParameterSets(in: head, from: first, layout: layout, video: video)
        self.length = length
        self.head = head
        self.tail = tail
        self.tailOffset = tailOffset
    }

    /// The parameter sets of the first video PES packet in `head` (as far as the head holds it).
    private static func firstParameterSets(in head: [UInt8], from first: Int, layout: TransportPacketLayout,
                                           video: TransportStreamDemuxer.VideoStream) -> [[UInt8]] {
        var payload: [UInt8] = []
        var started = false
        var position = first
        while position + layout.packetSize <= head.count {
            let sync = position + layout.syncOffset
            position += layout.packetSize
            guard head[sync] == TransportPacket.syncByte,
                  let packet = try? TransportPacket(head, at: sync, offset: UInt64(sync)), packet.pid == video.pid, packet.hasPayload
            else { continue }
            if packet.startsUnit {
                if started { break }
                started = true
            }
            if started { payload += head[(sync + packet.payload.lowerBound) ..< (sync + packet.payload.upperBound)] }
        }
        guard let header = try? PESHeader(payload[...], offset: 0, pid: video.pid), header.payloadStart <= payload.count else { return [] }
        let units = AnnexBNALUnits.split(payload[header.payloadStart...], keepsTrailingZeros: video.codec.usesStartCodeUnits).map { Array($0) }
        let picture = TransportAccessUnit(presentationTime: 0, decodeTime: 0, nalUnits: units, isKeyframe: false, byteRange: 0 ..< 0)
        return video.codec.parameterSets(in: [picture])
    }

    /// The least positive step between the presentation times of `pictures`, nil when there is none.
    private static func leastStep(_ pictures: [TransportPictureStart]) -> Int64? {
        let times = pictures.map(\.presentationTimestamp).sorted()
        return zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.min()
    }

    /// A search for times in the file, knowing what the ends show.
    public func search(probeBytes: UInt64 = TransportTimeSearch.defaultProbeBytes) -> TransportTimeSearch {
        var search = TransportTimeSearch(layout: layout, pid: video.pid, codec: video.codec, origin: origin, end: length,
                                         endTime: endTime, probeBytes: probeBytes)
        search.receive(head, at: 0)
        if !tail.isEmpty { search.receive(tail, at: tailOffset) }
        return search
    }
}
