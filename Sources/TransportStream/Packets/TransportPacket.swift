/// The header of one 188-byte transport packet (ISO/IEC 13818-1, 2.4.3.2) and where its payload is.
struct TransportPacket: Equatable {
    /// Bytes in a packet.
    static let size = 188
    /// The byte every packet starts with.
    static let syncByte: UInt8 = 0x47
    /// The PID of null packets (stuffing).
    static let nullPID: UInt16 = 0x1FFF

    /// The packet identifier.
    let pid: UInt16
    /// `payload_unit_start_indicator`: a PES packet or a section starts in this payload.
    let startsUnit: Bool
    /// `transport_scrambling_control` is not zero: the payload is scrambled.
    let isScrambled: Bool
    /// Whether the packet carries a payload (`adaptation_field_control` 01 or 11).
    let hasPayload: Bool
    /// Where the payload is, as offsets within the packet (empty when there is none).
    let payload: Range<Int>
    /// The adaptation field's `random_access_indicator`: a muxer marks the packet a keyframe's PES packet starts in.
    let isRandomAccess: Bool

    /// Reads the packet of `bytes` that starts at `start` (188 bytes must follow it). `offset` is its place in the
    /// stream, for errors.
    /// - Throws: `TransportStreamError` `malformed` when the adaptation field is longer than the packet.
    init(_ bytes: [UInt8], at start: Int, offset: UInt64) throws(TransportStreamError) {
        let flags = bytes[start + 1]
        startsUnit = flags & 0x40 != 0
        pid = UInt16(flags & 0x1F) << 8 | UInt16(bytes[start + 2])
        let control = bytes[start + 3]
        isScrambled = control & 0xC0 != 0
        let adaptationFieldControl = (control >> 4) & 0x3
        hasPayload = adaptationFieldControl & 0x1 != 0
        var payloadStart = 4
        var randomAccess = false
        if adaptationFieldControl & 0x2 != 0 {
            let length = Int(bytes[start + 4])
            // With a payload the field leaves at least one payload byte (183 at most); alone it fills the packet (183).
            let most = hasPayload ? 182 : 183
            guard length <= most else {
                throw TransportStreamError(.malformed, offset: offset, pid: pid,
                                           "adaptation field of \(length) bytes in a packet that holds \(most)")
            }
            payloadStart = 5 + length
            randomAccess = length > 0 && bytes[start + 5] & 0x40 != 0
        }
        isRandomAccess = randomAccess
        payload = hasPayload ? payloadStart ..< Self.size : Self.size ..< Self.size
    }
}
