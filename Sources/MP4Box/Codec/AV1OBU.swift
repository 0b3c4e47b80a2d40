/// One open bitstream unit (OBU) of AV1's low-overhead bitstream format (AV1 specification, 5.3 and 7.2), the form
/// in which MP4 samples and an `av1C` record's configOBUs hold AV1.
public struct AV1OBU: Sendable, Equatable {
    /// The OBU types this package tells apart (AV1 specification, 6.2.2).
    public static let sequenceHeaderType: UInt8 = 1
    /// A temporal delimiter (type 2): the start of a temporal unit.
    public static let temporalDelimiterType: UInt8 = 2

    /// obu_type (1 sequence header, 2 temporal delimiter, 3 frame header, 4 tile group, 5 metadata, 6 frame, ...).
    public var type: UInt8
    /// The temporal and spatial layer, when the OBU has an extension header.
    public var layer: (temporal: Int, spatial: Int)?
    /// The whole OBU, header included, as indices of the bytes it was read from.
    public var range: Range<Int>
    /// Its payload (after the header and size field), as indices of the bytes it was read from.
    public var payload: Range<Int>

    public static func == (lhs: AV1OBU, rhs: AV1OBU) -> Bool {
        lhs.type == rhs.type && lhs.layer?.temporal == rhs.layer?.temporal && lhs.layer?.spatial == rhs.layer?.spatial
            && lhs.range == rhs.range && lhs.payload == rhs.payload
    }

    /// The OBUs of `bytes`, in order. An OBU without a size field runs to the end of `bytes` (AV1-ISOBMFF allows it for
    /// the last OBU of a sample).
    /// - Parameters:
    ///   - bytes: the OBUs, one after another.
    ///   - name: what the bytes are, for errors (`av1C`, `sample`).
    /// - Throws: `MP4Error` `malformed` for a set forbidden bit or a size past 2^32 - 1, `needMoreBytes` for an OBU
    ///   whose header or payload runs past the end; the offset is the OBU's, counted from the start of `bytes`.
    public static func units<C: Collection>(in bytes: C, name: String) throws(MP4Error) -> [AV1OBU]
        where C.Element == UInt8, C.Index == Int {
        var units: [AV1OBU] = []
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let start = position
            func failure(_ code: MP4Error.Code, _ detail: String) -> MP4Error {
                MP4Error(code, path: name, offset: UInt64(start - bytes.startIndex), detail)
            }
            let header = bytes[position]
            guard header & 0x80 == 0 else { throw failure(.malformed, "obu forbidden bit set") }
            let type = (header >> 3) & 0x0F
            let hasExtension = header & 0x04 != 0
            let hasSize = header & 0x02 != 0
            position += 1
            var layer: (temporal: Int, spatial: Int)?
            if hasExtension {
                guard position < bytes.endIndex else { throw failure(.needMoreBytes, "obu extension header past the end") }
                let byte = bytes[position]
                layer = (Int(byte >> 5), Int((byte >> 3) & 0x3))
                position += 1
            }
            var end = bytes.endIndex
            if hasSize {
                var size: UInt64 = 0
                var shift: UInt64 = 0
                var done = false
                for _ in 0..<8 {
                    guard position < bytes.endIndex else { throw failure(.needMoreBytes, "obu size field past the end") }
                    let byte = bytes[position]
                    position += 1
                    size |= UInt64(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { done = true; break }
                }
                guard done, size <= UInt64(UInt32.max) else { throw failure(.malformed, "obu size field is not a leb128 below 2^32") }
                guard size <= UInt64(bytes.endIndex - position) else {
                    throw failure(.needMoreBytes, "obu of type \(type) says \(size) bytes, \(bytes.endIndex - position) are left")
                }
                end = position + Int(size)
            }
            units.append(AV1OBU(type: type, layer: layer, range: start..<end, payload: position..<end))
            position = end
        }
        return units
    }
}
