extension MovieLocator {
    /// Reads a moov box child by child, skipping the tracks that are not video without reading them.
    ///
    /// Each track's first `trackProbeSize` bytes tell its handler (tkhd, edts and mdia/mdhd/hdlr come first);
    /// a video track is read whole together with the probe of the box after it, so skipping an audio track
    /// that follows costs no extra round trip.
    func readVideoTracksOnly(moov header: BoxHeader, window: inout ReadWindow,
                             diagnostics: inout [ParseDiagnostic]) throws -> ContainerBox {
        guard let moovEnd = header.endOffset else {
            throw MP4Error(.unsupported, path: "moov", offset: header.offset, "moov runs to the end of a file of unknown length")
        }
        var children: [any Box] = []
        var position = header.offset + UInt64(header.headerSize)
        let probe = max(64, options.trackProbeSize)
        var count = 0
        while position < moovEnd {
            count += 1
            guard count <= options.limits.maximumChildBoxes else {
                throw MP4Error(.limitExceeded, path: "moov", offset: position, "more than \(options.limits.maximumChildBoxes) child boxes")
            }
            guard let probeBytes = try window.bytes(position..<min(moovEnd, position.saturatingAdd(probe)), allowShort: true,
                                                          readAhead: 0),
                  probeBytes.count >= 8 else {
                throw MP4Error(.needMoreBytes, path: "moov", offset: position, "file ends inside moov")
            }
            var reader = BoxReader(bytes: probeBytes, fileOffset: position, path: BoxPath().appending("moov"), limits: options.limits)
            let child = try BoxHeader.read(from: &reader, available: moovEnd - position)
            guard let size = child.size, size <= moovEnd - position else {
                throw MP4Error(.malformed, path: "moov/\(child.type)", offset: position, "box size \(child.size ?? 0) exceeds moov")
            }
            let end = position + size
            if child.type == "trak", let handler = Self.handler(inTrackProbe: probeBytes, at: position), handler != "vide" {
                children.append(UnknownBox(header: child))
            } else {
                // Read the box and the probe of the next one in one request.
                guard let bytes = try window.bytes(position..<min(moovEnd, end.saturatingAdd(probe)), allowShort: true, readAhead: 0),
                      UInt64(bytes.count) >= size else {
                    throw MP4Error(.needMoreBytes, path: "moov/\(child.type)", offset: position, "file ends inside moov")
                }
                let box = try MovieParser.parseBox(bytes: Array(bytes[0..<Int(size)]), fileOffset: position,
                                                   parent: BoxPath().appending("moov"), limits: options.limits,
                                                   diagnostics: &diagnostics)
                children.append(box)
            }
            position = end
        }
        return ContainerBox(header: header, children: children)
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
