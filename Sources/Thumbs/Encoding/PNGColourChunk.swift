import MP4Box

/// The `cICP` chunk (PNG, Third Edition, 11.3.2.6): the colour primaries, transfer function and range of a picture's
/// values by their ISO/IEC 23091-2 code points, which a reader that knows it takes over gAMA, cHRM, sRGB and iCCP.
/// libpng 1.6.39's simplified writer cannot write it, so it goes into the written file: after IHDR, with the chunks
/// it takes over removed (the simplified writer tags a 16-bit file as linear, gAMA 1.0, which a PQ or HLG signal is
/// not).
enum PNGColourChunk {
    /// `png` (a whole PNG file) with a cICP chunk saying `signal`'s primaries and transfer, the RGB matrix (0: PNG
    /// holds R'G'B') and its range, and without gAMA, cHRM, sRGB and iCCP; `png` unchanged when it is not chunks after
    /// a PNG signature and IHDR.
    static func tagging(_ png: [UInt8], with signal: ColourDescription) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { return png }
        var chunks: [(type: String, whole: ArraySlice<UInt8>)] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { return png }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            chunks.append((type, png[offset..<offset + 12 + length]))
            offset += 12 + length
        }
        guard offset == png.count, chunks.first?.type == "IHDR" else { return png }
        let taken = ["gAMA", "cHRM", "sRGB", "iCCP", "cICP"]
        var tagged = signature + chunks[0].whole
        tagged += chunk("cICP", [UInt8(clamping: signal.primaries), UInt8(clamping: signal.transfer), 0,
                                 signal.fullRange ? 1 : 0])
        for kept in chunks.dropFirst() where !taken.contains(kept.type) { tagged += kept.whole }
        return tagged
    }

    /// A whole chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let length = UInt32(data.count), crc = crc32(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    /// The CRC-32 of PNG (ISO 3309: reflected polynomial 0xEDB88320), bit by bit: chunks here are a few bytes.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
