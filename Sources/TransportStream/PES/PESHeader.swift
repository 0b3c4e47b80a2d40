/// The header of a PES packet (ISO/IEC 13818-1, 2.4.3.6) as far as a video stream needs it: its stream, its length,
/// its timestamps and where its payload starts.
struct PESHeader: Equatable {
    /// `stream_id` (0xE0 to 0xEF for video).
    let streamID: UInt8
    /// `PES_packet_length`: bytes after the length field; 0 for a video PES of unstated length.
    let packetLength: Int
    /// The presentation time stamp (33 bits, 90 kHz), when present.
    let presentationTimestamp: Int64?
    /// The decoding time stamp (33 bits, 90 kHz), when present.
    let decodingTimestamp: Int64?
    /// Where the payload starts, from the packet's first byte.
    let payloadStart: Int

    /// Bytes needed before the header can be read in full: the fixed part.
    static let fixedSize = 9

    /// Reads the header at the start of `bytes` (a PES packet's first bytes, 9 at least).
    /// - Throws: `TransportStreamError` `malformed` (no start code, a header longer than the bytes, an MPEG-1 header),
    ///   `unsupported` (a scrambled payload); `offset` and `pid` say where.
    init(_ bytes: ArraySlice<UInt8>, offset: UInt64, pid: UInt16) throws(TransportStreamError) {
        let base = bytes.startIndex
        guard bytes.count >= Self.fixedSize, bytes[base] == 0, bytes[base + 1] == 0, bytes[base + 2] == 1 else {
            throw TransportStreamError(.malformed, offset: offset, pid: pid, "a PES packet does not start with 00 00 01")
        }
        streamID = bytes[base + 3]
        packetLength = Int(bytes[base + 4]) << 8 | Int(bytes[base + 5])
        let flags = bytes[base + 6]
        guard flags & 0xC0 == 0x80 else {
            throw TransportStreamError(.malformed, offset: offset, pid: pid,
                                       "PES header without its '10' marker bits (an MPEG-1 system header?)")
        }
        guard flags & 0x30 == 0 else {
            throw TransportStreamError(.unsupported, offset: offset, pid: pid, "the PES payload is scrambled")
        }
        let timestampFlags = bytes[base + 7] >> 6
        let headerDataLength = Int(bytes[base + 8])
        payloadStart = Self.fixedSize + headerDataLength
        let timestampBytes = timestampFlags == 3 ? 10 : timestampFlags == 2 ? 5 : 0
        guard headerDataLength >= timestampBytes, bytes.count >= Self.fixedSize + timestampBytes else {
            throw TransportStreamError(.malformed, offset: offset, pid: pid,
                                       "PES header of \(headerDataLength) bytes holds no \(timestampBytes) bytes of timestamps")
        }
        presentationTimestamp = timestampBytes >= 5 ? Self.timestamp(bytes[(base + 9)...]) : nil
        decodingTimestamp = timestampBytes == 10 ? Self.timestamp(bytes[(base + 14)...]) : nil
    }

    /// The 33-bit timestamp in the five bytes at the start of `bytes`, its marker bits left aside.
    private static func timestamp(_ bytes: ArraySlice<UInt8>) -> Int64 {
        let b = bytes.startIndex
        let high = Int64(bytes[b] >> 1 & 0x07) << 30
        let middle = (Int64(bytes[b + 1]) << 7 | Int64(bytes[b + 2] >> 1)) << 15
        let low = Int64(bytes[b + 3]) << 7 | Int64(bytes[b + 4] >> 1)
        return high | middle | low
    }
}
