/// The program association and program map tables (ISO/IEC 13818-1, 2.4.4.3 and 2.4.4.8): which PID carries the
/// program map, and which PIDs carry the program's elementary streams.
enum ProgramSpecificInformation {
    /// One elementary stream a program map lists.
    struct ElementaryStream: Equatable {
        /// `stream_type`: 0x1B H.264, 0x24 HEVC, 0x0F AAC, ...
        var streamType: UInt8
        /// The PID of its packets.
        var pid: UInt16
        /// The four-character `format_identifier` of its registration descriptor (tag 5), when it has one.
        var registration: UInt32?
    }

    /// The checked body of a section with the syntax of PAT and PMT (`section_syntax_indicator` set): the bytes
    /// after the 8-byte header and before the CRC, or nil when the section is another table, not current, or
    /// damaged (a wrong CRC: such a section is dropped, as receivers do).
    static func body(of section: [UInt8], tableID: UInt8) -> ArraySlice<UInt8>? {
        guard section.count >= 12, section[0] == tableID, section[1] & 0x80 != 0, section[5] & 0x01 != 0,
              CRC32MPEG2.checksum(section) == 0 else { return nil }
        return section[8 ..< section.count - 4]
    }

    /// The PIDs of the program maps a PAT section lists (program 0, the network information, left out), in order.
    static func programMapPIDs(_ section: [UInt8]) -> [UInt16]? {
        guard let body = body(of: section, tableID: 0x00) else { return nil }
        var pids: [UInt16] = []
        var index = body.startIndex
        while index + 4 <= body.endIndex {
            let program = UInt16(body[index]) << 8 | UInt16(body[index + 1])
            let pid = UInt16(body[index + 2] & 0x1F) << 8 | UInt16(body[index + 3])
            if program != 0 { pids.append(pid) }
            index += 4
        }
        return pids
    }

    /// The elementary streams a PMT section lists, in order; nil when the section is not a usable PMT.
    static func elementaryStreams(_ section: [UInt8]) -> [ElementaryStream]? {
        guard let body = body(of: section, tableID: 0x02), body.count >= 4 else { return nil }
        let programInfoLength = Int(body[body.startIndex + 2] & 0x0F) << 8 | Int(body[body.startIndex + 3])
        var index = body.startIndex + 4 + programInfoLength
        var streams: [ElementaryStream] = []
        while index + 5 <= body.endIndex {
            let type = body[index]
            let pid = UInt16(body[index + 1] & 0x1F) << 8 | UInt16(body[index + 2])
            let infoLength = Int(body[index + 3] & 0x0F) << 8 | Int(body[index + 4])
            let descriptors = body[(index + 5) ..< min(index + 5 + infoLength, body.endIndex)]
            streams.append(ElementaryStream(streamType: type, pid: pid, registration: registration(in: descriptors)))
            index += 5 + infoLength
        }
        return streams
    }

    /// The format identifier of the registration descriptor among `descriptors`, if any.
    private static func registration(in descriptors: ArraySlice<UInt8>) -> UInt32? {
        var index = descriptors.startIndex
        while index + 2 <= descriptors.endIndex {
            let tag = descriptors[index]
            let length = Int(descriptors[index + 1])
            if tag == 5, length >= 4, index + 6 <= descriptors.endIndex {
                return descriptors[(index + 2) ..< (index + 6)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            index += 2 + length
        }
        return nil
    }
}
