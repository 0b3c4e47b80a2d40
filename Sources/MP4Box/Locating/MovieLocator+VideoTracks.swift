extension MovieLocator {
    /// A large moov read child by child, its tracks that are not video skipped without being read: how far it is.
    struct PartialMoov: Sendable {
        let header: BoxHeader
        /// Where moov ends.
        let end: UInt64
        /// The offset of the next child.
        var position: UInt64
        /// The children read so far (a skipped track as an `UnknownBox` of its header).
        var children: [any Box] = []
        /// How many of `children` are tracks.
        var trackCount = 0

        /// The moov at `header`, none of its children read yet.
        /// - Throws: `unsupported` for a moov that runs to the end of a file of unknown length.
        init(_ header: BoxHeader) throws(MP4Error) {
            guard let end = header.endOffset else {
                throw MP4Error(.unsupported, path: "moov", offset: header.offset, "moov runs to the end of a file of unknown length")
            }
            self.header = header
            self.end = end
            position = header.offset + UInt64(header.headerSize)
        }

    }

    /// The child at `position` of a moov that ends at `end` and has `count` children before it (`trackCount` of them
    /// tracks), and where it ends: one step of the walk, so a moov of many tracks costs work in proportion to them. The
    /// child's first `trackProbeSize` bytes tell a track's handler (tkhd, edts and mdia/mdhd/hdlr come first): a track
    /// that is not video is an `UnknownBox` of its header, unread; any other child is read whole together with the
    /// probe of the one after it, so skipping an audio track that follows costs no extra round trip. Reads ask for at
    /// least `minimumWalkRead` bytes and twice the walk's last read (up to moov's end): a moov of many tiny boxes costs
    /// a few reads, not one per box.
    /// - Throws: `limitExceeded` past `maximumChildBoxes` children or `maximumTrackCount` tracks.
    func readChild(at position: UInt64, of end: UInt64, after count: Int, trackCount: Int, window: inout ReadWindow,
                   diagnostics: inout [ParseDiagnostic]) throws -> (child: any Box, end: UInt64) {
        let probe = max(64, options.trackProbeSize)
        guard count < options.limits.maximumChildBoxes else {
            throw MP4Error(.limitExceeded, path: "moov", offset: position, "more than \(options.limits.maximumChildBoxes) child boxes")
        }
        guard let probeBytes = try window.bytes(position..<min(end, position.saturatingAdd(probe)), allowShort: true,
                                                readAhead: 0, growingTo: end, minimum: options.minimumWalkRead),
              probeBytes.count >= 8 else {
            throw MP4Error(.needMoreBytes, path: "moov", offset: position, "file ends inside moov")
        }
        var reader = BoxReader(bytes: probeBytes, fileOffset: position, path: BoxPath().appending("moov"), limits: options.limits)
        let child = try BoxHeader.read(from: &reader, available: end - position)
        guard let size = child.size, size <= end - position else {
            throw MP4Error(.malformed, path: "moov/\(child.type)", offset: position, "box size \(child.size ?? 0) exceeds moov")
        }
        let childEnd = position + size
        if child.type == "trak", trackCount >= options.limits.maximumTrackCount {
            throw MP4Error(.limitExceeded, path: "moov/trak", offset: position, "more than \(options.limits.maximumTrackCount) tracks")
        }
        if child.type == "trak", let handler = Self.handler(inTrackProbe: probeBytes, at: position), handler != "vide" {
            return (UnknownBox(header: child), childEnd)
        }
        // Read the box and the probe of the next one in one request.
        guard let bytes = try window.bytes(position..<min(end, childEnd.saturatingAdd(probe)), allowShort: true, readAhead: 0,
                                           growingTo: end, minimum: options.minimumWalkRead),
              UInt64(bytes.count) >= size else {
            throw MP4Error(.needMoreBytes, path: "moov/\(child.type)", offset: position, "file ends inside moov")
        }
        let box = try MovieParser.parseBox(bytes: Array(bytes[0..<Int(size)]), fileOffset: position,
                                           parent: BoxPath().appending("moov"), limits: options.limits,
                                           diagnostics: &diagnostics)
        return (box, childEnd)
    }

    /// The handler type of a track from the first bytes of its trak box, or nil when they do not reach it.
    static func handler(inTrackProbe bytes: [UInt8], at offset: UInt64) -> FourCC? {
        var trak = BoxReader(bytes: bytes, fileOffset: offset)
        guard let trakHeader = try? BoxHeader.read(from: &trak, available: nil), trakHeader.type == "trak" else { return nil }
        while trak.remaining >= 8 {
            guard let child = try? BoxHeader.read(from: &trak, available: nil), let size = child.payloadSize else { return nil }
            if child.type == "mdia" {
                while trak.remaining >= 8 {
                    guard let grandchild = try? BoxHeader.read(from: &trak, available: nil), let inner = grandchild.payloadSize else {
                        return nil
                    }
                    if grandchild.type == "hdlr" {
                        guard (try? trak.skip(8)) != nil, let handler = try? trak.readFourCC() else { return nil }
                        return handler
                    }
                    guard inner <= UInt64(trak.remaining), (try? trak.skip(Int(inner))) != nil else { return nil }
                }
                return nil
            }
            guard size <= UInt64(trak.remaining), (try? trak.skip(Int(size))) != nil else { return nil }
        }
        return nil
    }
}
