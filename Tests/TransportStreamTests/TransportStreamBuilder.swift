/// Writes small MPEG transport streams by ISO/IEC 13818-1's layout, for tests of what real files do not show: PES
/// packets split over packets, untimed continuations, damaged tables, scrambling, lost sync.
struct TransportStreamBuilder {
    private(set) var bytes: [UInt8] = []
    private var counters: [UInt16: UInt8] = [:]

    /// One 188-byte packet of `pid` carrying `payload` (at most 184 bytes, 182 with `randomAccess`), stuffed with an
    /// adaptation field.
    mutating func packet(pid: UInt16, payload: [UInt8], startsUnit: Bool, randomAccess: Bool = false,
                         scrambled: Bool = false) {
        precondition(payload.count <= (randomAccess ? 182 : 184))
        let counter = counters[pid, default: 0]
        counters[pid] = (counter + 1) & 0x0F
        let needsField = payload.count < 184 || randomAccess
        var packet: [UInt8] = [0x47, (startsUnit ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF),
                               (scrambled ? 0x80 : 0) | (needsField ? 0x30 : 0x10) | counter]
        if needsField {
            let fieldLength = 183 - payload.count  // the bytes after the field's length byte
            packet.append(UInt8(fieldLength))
            if fieldLength > 0 {
                packet.append(randomAccess ? 0x40 : 0x00)
                packet += [UInt8](repeating: 0xFF, count: fieldLength - 1)
            }
        }
        packet += payload
        precondition(packet.count == 188)
        bytes += packet
    }

    /// `section` after a zero pointer field, over as many packets as it needs, the last filled with 0xFF.
    mutating func section(pid: UInt16, _ section: [UInt8]) {
        var rest = [0] + section
        var first = true
        while !rest.isEmpty {
            var chunk = Array(rest.prefix(184))
            rest.removeFirst(chunk.count)
            if rest.isEmpty { chunk += [UInt8](repeating: 0xFF, count: 184 - chunk.count) }
            packet(pid: pid, payload: chunk, startsUnit: first)
            first = false
        }
    }

    /// A PES packet of `payload` with the timestamps given, split over packets of `pid`.
    mutating func pes(pid: UInt16, presentation: Int64?, decoding: Int64? = nil, payload: [UInt8],
                      declaresLength: Bool = false, randomAccess: Bool = false, scrambled: Bool = false) {
        var header: [UInt8] = [0, 0, 1, 0xE0]
        var optional: [UInt8] = []
        var flags: UInt8 = 0
        if let presentation {
            flags = decoding == nil ? 0x80 : 0xC0
            optional += Self.timestamp(presentation, prefix: decoding == nil ? 0x2 : 0x3)
            if let decoding { optional += Self.timestamp(decoding, prefix: 0x1) }
        }
        let length = declaresLength ? 3 + optional.count + payload.count : 0
        header += [UInt8(length >> 8), UInt8(length & 0xFF), 0x80, flags, UInt8(optional.count)]
        var rest = header + optional + payload
        var first = true
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(first && randomAccess ? 182 : 184))
            rest.removeFirst(chunk.count)
            packet(pid: pid, payload: chunk, startsUnit: first, randomAccess: first && randomAccess, scrambled: scrambled)
            first = false
        }
    }

    /// A PAT naming one program whose map is on `mapPID`.
    static func programAssociation(mapPID: UInt16) -> [UInt8] {
        withCRC([0x00, 0xB0, 13, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xE0 | UInt8(mapPID >> 8), UInt8(mapPID & 0xFF)])
    }

    /// A PMT of program 1 listing `streams` (stream type, PID).
    static func programMap(_ streams: [(type: UInt8, pid: UInt16)]) -> [UInt8] {
        var body: [UInt8] = [0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00]
        for stream in streams { body += [stream.type, 0xE0 | UInt8(stream.pid >> 8), UInt8(stream.pid & 0xFF), 0xF0, 0x00] }
        let length = body.count + 4
        return withCRC([0x02, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF)] + body)
    }

    /// `section` followed by its CRC-32/MPEG-2, computed bit by bit.
    static func withCRC(_ section: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in section {
            for bit in (0 ..< 8).reversed() {
                let incoming = UInt32((byte >> UInt8(bit)) & 1)
                let top = (crc >> 31) & 1
                crc <<= 1
                if top ^ incoming == 1 { crc ^= 0x04C1_1DB7 }
            }
        }
        return section + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    /// A PTS or DTS field: the 4-bit prefix, the 33 bits in three parts, each followed by a marker bit.
    static func timestamp(_ value: Int64, prefix: UInt8) -> [UInt8] {
        let v = UInt64(value) & ((1 << 33) - 1)
        return [prefix << 4 | UInt8((v >> 29) & 0x0E) | 1, UInt8((v >> 22) & 0xFF), UInt8((v >> 14) & 0xFE) | 1,
                UInt8((v >> 7) & 0xFF), UInt8((v << 1) & 0xFE) | 1]
    }

    /// The usual start: a PAT naming PMT PID 0x1000, and that PMT listing `streams`.
    mutating func tables(_ streams: [(type: UInt8, pid: UInt16)]) {
        section(pid: 0, Self.programAssociation(mapPID: 0x1000))
        section(pid: 0x1000, Self.programMap(streams))
    }

    /// Appends raw bytes (lost sync, garbage).
    mutating func raw(_ extra: [UInt8]) { bytes += extra }
}

/// Annex B access units for tests: NAL units behind start codes.
enum AnnexB {
    static func units(_ nals: [[UInt8]]) -> [UInt8] { nals.flatMap { [0, 0, 0, 1] + $0 } }
}
