/// Reads the video of an MPEG transport stream (ISO/IEC 13818-1) from its first byte on, as its bytes arrive: the
/// program association table, the first program's map, then the PES packets of its first H.264, HEVC, MPEG-2 or MPEG-4 Part 2 stream,
/// each one an access unit with its times unwrapped from 33 bits. Audio, captions, other programs and the PCR are
/// passed over.
///
/// Sans I/O: the caller appends bytes as it reads them and looks at `completeAccessUnits` to decide whether to read
/// more. Nothing is allocated for a size the stream states; `TransportStreamLimits` bounds what is held.
///
/// A PES packet without a presentation time continues the access unit before it (an encoder that spreads one
/// picture over several PES packets times only the first).
public struct TransportStreamDemuxer: Sendable {
    /// The stream the demuxer follows.
    public struct VideoStream: Sendable, Equatable {
        /// The PID of its packets.
        public var pid: UInt16
        /// Its coding.
        public var codec: TransportVideoCodec
        /// Its `stream_type` in the program map.
        public var streamType: UInt8
    }

    /// The caps.
    public let limits: TransportStreamLimits
    /// How the packets lie: 188 bytes each, or 192 with a timestamp before each (`.m2ts`).
    public let layout: TransportPacketLayout
    /// The video stream, once the program map has named it.
    public private(set) var video: VideoStream?
    /// The access units read so far, in decode order; the last may still be continued (see `completeAccessUnits`).
    public private(set) var accessUnits: [TransportAccessUnit] = []
    /// Bytes appended so far.
    public private(set) var bytesAppended: UInt64 = 0
    /// Times the sync byte was lost and found again further on (bytes between were skipped).
    public private(set) var resynchronisations = 0
    /// Whether `finish()` was called.
    public private(set) var isFinished = false

    /// Bytes appended that do not yet make a whole packet, from `bufferOffset` in the stream.
    private var buffer: [UInt8] = []
    private var bufferOffset: UInt64 = 0
    private var associationSections = SectionAssembler()
    private var mapSections: [UInt16: SectionAssembler] = [:]
    private var programMapPIDs: [UInt16] = []
    private var pending: PendingPES?
    private var unwrapper = TimestampUnwrapper()
    /// The highest HEVC `TemporalId` the last SPS allows.
    private var highestTemporalID: Int?
    private var heldBytes = 0

    /// A PES packet being joined from its packets.
    private struct PendingPES {
        var bytes: [UInt8]
        var offset: UInt64
        var end: UInt64
        /// Whether its header has the PTS flag: it starts an access unit of its own.
        var isTimed: Bool { bytes.count > 7 && bytes[7] & 0x80 != 0 }
        /// The bytes it declares after its length field, when it declares them.
        var declaredEnd: Int? {
            guard bytes.count >= 6 else { return nil }
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            return length > 0 ? 6 + length : nil
        }
    }

    /// A demuxer at the start of a stream whose packets lie as `layout` says.
    public init(limits: TransportStreamLimits = TransportStreamLimits(), layout: TransportPacketLayout = .plain) {
        self.limits = limits
        self.layout = layout
    }

    /// The access units known to be whole: all of `accessUnits` once the stream is finished or once the PES packet
    /// after the last one starts an access unit of its own, else all but the last.
    public var completeAccessUnits: ArraySlice<TransportAccessUnit> {
        if isFinished || pending?.isTimed == true { return accessUnits[...] }
        return accessUnits.dropLast()
    }

    /// Reads `bytes`, the stream's next bytes.
    /// - Throws: `TransportStreamError`: `notTransportStream` when the first byte is not a sync byte, `malformed` (also
    ///   for bytes appended after `finish()`),
    ///   `unsupported` (the program has no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video, or it is scrambled), `limitExceeded`.
    public mutating func append<C: Collection>(_ bytes: C) throws(TransportStreamError) where C.Element == UInt8 {
        guard !isFinished else {
            throw TransportStreamError(.malformed, offset: bufferOffset, "bytes appended after the stream's end")
        }
        let sync = UInt64(layout.syncOffset)
        if bytesAppended <= sync, sync < bytesAppended + UInt64(bytes.count) {
            let first = bytes[bytes.index(bytes.startIndex, offsetBy: Int(sync - bytesAppended))]
            if first != TransportPacket.syncByte {
                throw TransportStreamError(.notTransportStream, offset: sync,
                                           "not an MPEG transport stream: its \(sync == 0 ? "first byte" : "byte \(sync)") is 0x\(String(first, radix: 16)), not the sync byte 0x47")
            }
        }
        bytesAppended += UInt64(bytes.count)
        buffer += bytes
        try readPackets(atEnd: false)
        if video == nil, bytesAppended > UInt64(limits.maximumBytesBeforeVideo) {
            throw TransportStreamError(.limitExceeded, offset: bufferOffset,
                                       "no program map naming a video stream in the first \(limits.maximumBytesBeforeVideo) bytes")
        }
    }

    /// Goes on at `offset`, another place in the stream: the next bytes appended are from there. The partial packet
    /// and PES packet held are dropped, and so are the access units read; the program tables, the video stream and
    /// the timeline are kept. For a range of the stream read on its own (an I-frame playlist's), after the program
    /// tables read from the stream's start. A finished stream goes on too.
    public mutating func restart(at offset: UInt64) {
        isFinished = false
        buffer = []
        bufferOffset = offset
        pending = nil
        accessUnits = []
        heldBytes = 0
    }

    /// Ends the stream: the PES packet in progress becomes the last access unit.
    /// - Throws: as `append(_:)`.
    public mutating func finish() throws(TransportStreamError) {
        guard !isFinished else { return }
        try readPackets(atEnd: true)
        try completePending(atEnd: true)
        isFinished = true
    }

    /// Reads the whole packets in the buffer and keeps the rest for the next append.
    private mutating func readPackets(atEnd: Bool) throws(TransportStreamError) {
        var position = 0
        while buffer.count - position >= layout.packetSize {
            guard buffer[position + layout.syncOffset] == TransportPacket.syncByte else {
                guard let found = resynchronised(after: position, atEnd: atEnd) else { break }
                position = found
                resynchronisations += 1
                continue
            }
            let packet = position + layout.syncOffset
            try read(TransportPacket(buffer, at: packet, offset: bufferOffset + UInt64(position)), at: packet,
                     offset: bufferOffset + UInt64(position))
            position += layout.packetSize
        }
        buffer.removeFirst(position)
        bufferOffset += UInt64(position)
    }

    /// Where the next packet after `position` starts whose sync byte is followed by another a packet later (or, at
    /// the end of the stream, that is its last whole packet); nil when the buffer does not show one yet (the bytes
    /// from `position` are kept for the next append).
    private func resynchronised(after position: Int, atEnd: Bool) -> Int? {
        var candidate = position + 1
        while candidate + layout.packetSize <= buffer.count {
            if buffer[candidate + layout.syncOffset] == TransportPacket.syncByte {
                let next = candidate + layout.packetSize + layout.syncOffset
                if next < buffer.count ? buffer[next] == TransportPacket.syncByte : atEnd { return candidate }
            }
            candidate += 1
        }
        return nil
    }

    /// Reads `packet`, whose sync byte is at `position` in the buffer and which starts at `offset` in the stream.
    private mutating func read(_ packet: TransportPacket, at position: Int, offset: UInt64) throws(TransportStreamError) {
        guard packet.hasPayload, packet.pid != TransportPacket.nullPID else { return }
        let payload = buffer[(position + packet.payload.lowerBound) ..< (position + packet.payload.upperBound)]
        if let video {
            if packet.pid == video.pid { try readVideo(packet, payload: payload, offset: offset) }
            return
        }
        if packet.pid == 0 {
            guard programMapPIDs.isEmpty else { return }
            for section in associationSections.append(payload, startsUnit: packet.startsUnit) {
                if let pids = ProgramSpecificInformation.programMapPIDs(section), !pids.isEmpty {
                    programMapPIDs = pids
                    break
                }
            }
        } else if programMapPIDs.contains(packet.pid) {
            var assembler = mapSections[packet.pid] ?? SectionAssembler()
            let sections = assembler.append(payload, startsUnit: packet.startsUnit)
            mapSections[packet.pid] = assembler
            for section in sections {
                guard let streams = ProgramSpecificInformation.elementaryStreams(section) else { continue }
                try chooseVideo(from: streams, offset: offset, mapPID: packet.pid)
                if video != nil { return }
            }
        }
    }

    /// Takes the first H.264, HEVC, MPEG-2 or MPEG-4 Part 2 stream of a program map.
    /// - Throws: `unsupported` when the first program's map lists no video this reader hands on.
    private mutating func chooseVideo(from streams: [ProgramSpecificInformation.ElementaryStream], offset: UInt64,
                                      mapPID: UInt16) throws(TransportStreamError) {
        for stream in streams {
            if let codec = TransportVideoCodec(streamType: stream.streamType, registration: stream.registration) {
                video = VideoStream(pid: stream.pid, codec: codec, streamType: stream.streamType)
                return
            }
        }
        // Only the first program counts: a stream with several names its video in the first.
        guard mapPID == programMapPIDs.first else { return }
        let undecodable = streams.compactMap { TransportVideoCodec.undecodableVideo(streamType: $0.streamType) }
        let types = streams.map { "0x" + String($0.streamType, radix: 16) }.joined(separator: ", ")
        throw TransportStreamError(.unsupported, offset: offset, pid: mapPID,
                                   undecodable.first.map { "the program's video is \($0), which is not decoded here" }
                                       ?? "the program lists no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video (stream types \(types.isEmpty ? "none" : types))")
    }

    private mutating func readVideo(_ packet: TransportPacket, payload: ArraySlice<UInt8>,
                                    offset: UInt64) throws(TransportStreamError) {
        if packet.isScrambled {
            throw TransportStreamError(.unsupported, offset: offset, pid: packet.pid, "the video packets are scrambled")
        }
        let end = offset + UInt64(layout.packetSize)
        if packet.startsUnit {
            try completePending()
            pending = PendingPES(bytes: Array(payload), offset: offset, end: end)
        } else if pending != nil {
            pending?.bytes += payload
            pending?.end = end
        } else {
            return  // the rest of a PES packet that started before the first byte read
        }
        guard let pending else { return }
        guard pending.bytes.count <= limits.maximumAccessUnitBytes + 64 else {
            throw TransportStreamError(.limitExceeded, offset: pending.offset, pid: packet.pid,
                                       "a PES packet longer than \(limits.maximumAccessUnitBytes) bytes")
        }
        guard heldBytes + pending.bytes.count <= limits.maximumHeldBytes else {
            throw TransportStreamError(.limitExceeded, offset: offset, pid: packet.pid,
                                       "access units of more than \(limits.maximumHeldBytes) bytes held")
        }
        if let declared = pending.declaredEnd, pending.bytes.count >= declared { try completePending() }
    }

    /// Turns the PES packet in progress into an access unit, or into the continuation of the last one. At the end of
    /// the stream, one cut shorter than its header or its declared length is left out.
    private mutating func completePending(atEnd: Bool = false) throws(TransportStreamError) {
        guard let pes = pending, let video else { return }
        pending = nil
        if atEnd, pes.bytes.count < PESHeader.fixedSize || pes.bytes.count < pes.declaredEnd ?? 0 { return }
        guard pes.bytes.count >= PESHeader.fixedSize else {
            throw TransportStreamError(.malformed, offset: pes.offset, pid: video.pid,
                                       "a PES packet of \(pes.bytes.count) bytes, shorter than its header")
        }
        let header = try PESHeader(pes.bytes[...], offset: pes.offset, pid: video.pid)
        guard header.payloadStart <= pes.bytes.count else {
            throw TransportStreamError(.malformed, offset: pes.offset, pid: video.pid,
                                       "PES header of \(header.payloadStart) bytes in a packet of \(pes.bytes.count)")
        }
        let payloadEnd = header.packetLength > 0 ? min(pes.bytes.count, 6 + header.packetLength) : pes.bytes.count
        let units = AnnexBNALUnits.split(pes.bytes[header.payloadStart ..< max(header.payloadStart, payloadEnd)],
                                         keepsTrailingZeros: video.codec.usesStartCodeUnits).map { Array($0) }
        let unitBytes = units.reduce(0) { $0 + $1.count }
        guard let presentation = header.presentationTimestamp else {
            // Untimed: more of the access unit before.
            guard var last = accessUnits.popLast() else { return }
            guard last.byteCount + unitBytes <= limits.maximumAccessUnitBytes else {
                throw TransportStreamError(.limitExceeded, offset: pes.offset, pid: video.pid,
                                           "an access unit longer than \(limits.maximumAccessUnitBytes) bytes")
            }
            noteParameterSets(in: units, codec: video.codec)
            last.nalUnits += units
            last.isKeyframe = TransportAccessUnit.startsDecoding(last.nalUnits, codec: video.codec)
            last.isDisposable = TransportAccessUnit.isDisposable(last.nalUnits, codec: video.codec,
                                                                 highestTemporalID: highestTemporalID)
            last.byteRange = last.byteRange.lowerBound ..< pes.end
            heldBytes += unitBytes
            accessUnits.append(last)
            return
        }
        guard accessUnits.count < limits.maximumAccessUnits else {
            throw TransportStreamError(.limitExceeded, offset: pes.offset, pid: video.pid,
                                       "more than \(limits.maximumAccessUnits) access units held")
        }
        let decoding = unwrapper.unwrap(header.decodingTimestamp ?? presentation)
        var offset = (presentation - (header.decodingTimestamp ?? presentation)) & (TimestampUnwrapper.period - 1)
        if offset >= TimestampUnwrapper.period / 2 { offset -= TimestampUnwrapper.period }
        heldBytes += unitBytes
        noteParameterSets(in: units, codec: video.codec)
        accessUnits.append(TransportAccessUnit(presentationTime: decoding + offset, decodeTime: decoding, nalUnits: units,
                                               isKeyframe: TransportAccessUnit.startsDecoding(units, codec: video.codec),
                                               byteRange: pes.offset ..< pes.end,
                                               isDisposable: TransportAccessUnit.isDisposable(
                                                   units, codec: video.codec, highestTemporalID: highestTemporalID)))
    }

    /// Keeps what an HEVC SPS among `units` says of the sub-layers.
    private mutating func noteParameterSets(in units: [[UInt8]], codec: TransportVideoCodec) {
        for unit in units where unit.first.map({ codec.nalUnitType($0) == 33 }) == true {
            highestTemporalID = codec.highestTemporalID(ofSequenceParameterSet: unit)
        }
    }
}
