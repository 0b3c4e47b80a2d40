/// Where a picture's PES packet starts in a stream read anywhere (a search's probe): the packet's offset, its times
/// and whether decoding can start there, from that one packet.
public struct TransportPictureStart: Sendable, Equatable {
    /// The stream offset of the packet the PES packet starts in (its first byte: the timestamp of a 192-byte packet).
    public var offset: UInt64
    /// The presentation and decoding times, 33-bit 90 kHz timestamps as the PES header states them (the decoding time
    /// is the presentation time when it states none).
    public var presentationTimestamp: Int64
    public var decodingTimestamp: Int64
    /// Whether decoding can start at the picture: the packet's `random_access_indicator`, or an H.264 IDR or HEVC IRAP
    /// NAL unit (or a recovery point) within the packet's payload.
    public var isKeyframe: Bool

    /// The timed PES packets of stream `pid` (coded as `codec`) that start in the whole packets of `bytes`, read at
    /// stream `offset` anywhere in the stream: the packets are found from the first sync byte that another follows a
    /// packet later, and found again after bytes that are no packet. A PES packet without a presentation time, or
    /// whose header is damaged, is passed over.
    public static func all(in bytes: ArraySlice<UInt8>, at offset: UInt64, layout: TransportPacketLayout, pid: UInt16,
                           codec: TransportVideoCodec) -> [TransportPictureStart] {
        var found: [TransportPictureStart] = []
        guard var position = layout.firstPacket(in: bytes) else { return [] }
        while position + layout.packetSize <= bytes.endIndex {
            guard bytes[position + layout.syncOffset] == TransportPacket.syncByte else {
                guard let next = layout.firstPacket(in: bytes[(position + 1)...]) else { break }
                position = next
                continue
            }
            let start = position
            position += layout.packetSize
            let sync = start + layout.syncOffset
            // Only the packets that start a PES packet of the stream are read whole.
            let flags = bytes[sync + 1]
            guard flags & 0x40 != 0, UInt16(flags & 0x1F) << 8 | UInt16(bytes[sync + 2]) == pid else { continue }
            let packetBytes = Array(bytes[sync ..< sync + TransportPacket.size])
            let streamOffset = offset + UInt64(start - bytes.startIndex)
            guard let read = try? TransportPacket(packetBytes, at: 0, offset: streamOffset), read.hasPayload, !read.isScrambled,
                  let header = try? PESHeader(packetBytes[read.payload], offset: streamOffset, pid: pid),
                  let presentation = header.presentationTimestamp else { continue }
            let payload = packetBytes[read.payload]
            let elementary = payload.dropFirst(min(header.payloadStart, payload.count))
            let units = AnnexBNALUnits.split(elementary).map { Array($0) }
            found.append(TransportPictureStart(
                offset: streamOffset, presentationTimestamp: presentation,
                decodingTimestamp: header.decodingTimestamp ?? presentation,
                isKeyframe: read.isRandomAccess || TransportAccessUnit.startsDecoding(units, codec: codec)))
        }
        return found
    }
}
