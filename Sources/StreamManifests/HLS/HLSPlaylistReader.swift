/// Reads HLS playlists (RFC 8216): a master playlist into one period of renditions that name their media playlists,
/// a media playlist into one period of one rendition with its segments.
enum HLSPlaylistReader {
    /// The playlist in `text`, read from `url`.
    /// - Throws: `ManifestError`: `notAManifest` when the text does not start with `#EXTM3U`, `malformed` for tags
    ///   that contradict RFC 8216 (with the line), `limitExceeded` past `limits`, `empty` for a media playlist
    ///   without segments that has ended.
    static func read(_ text: String, url: String?, limits: ManifestLimits) throws(ManifestError) -> StreamPresentation {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        let lines = HLSLines(text: body)
        guard let first = lines.first(where: { _ in true }), first.text == "#EXTM3U" else {
            throw ManifestError(.notAManifest, url: url, location: "line 1", "an HLS playlist starts with #EXTM3U")
        }
        let isMaster = lines.contains { line in
            guard let tag = line.tag else { return false }
            return tag.name == "#EXT-X-STREAM-INF" || tag.name == "#EXT-X-I-FRAME-STREAM-INF"
        }
        do throws(ManifestError) {
            return isMaster ? try readMaster(lines, url: url) : try readMedia(lines, url: url, limits: limits)
        } catch {
            var located = error
            located.url = url
            throw located
        }
    }

    /// What a codecs attribute says a rendition carries.
    static func kind(codecs: String?, hasResolution: Bool) -> StreamRendition.Kind {
        if hasResolution { return .video }
        guard let codecs else { return .unknown }
        let videoPrefixes = ["avc1", "avc3", "hvc1", "hev1", "av01", "vp09", "vp08", "dvh1", "dvhe", "dvav", "dva1", "mp4v"]
        let entries = codecs.split(separator: ",").map { $0.trimmingASCIIWhitespace().lowercased() }
        if entries.contains(where: { entry in videoPrefixes.contains { entry.hasPrefix($0) } }) { return .video }
        let audioPrefixes = ["mp4a", "ac-3", "ec-3", "opus", "flac", "fla", "alac", "dtsc"]
        if !entries.isEmpty, entries.allSatisfy({ entry in audioPrefixes.contains { entry.hasPrefix($0) } }) { return .audio }
        return .unknown
    }

    private static func readMaster(_ lines: HLSLines, url: String?) throws(ManifestError) -> StreamPresentation {
        var renditions: [StreamRendition] = []
        var pending: (attributes: HLSAttributeList, line: HLSLines.Line)?
        var sessionEncrypted = false
        for line in lines.dropFirst() {
            if let tag = line.tag {
                switch tag.name {
                case "#EXT-X-STREAM-INF":
                    pending = (try HLSAttributeList(tag.value, location: line.location), line)
                case "#EXT-X-I-FRAME-STREAM-INF":
                    let attributes = try HLSAttributeList(tag.value, location: line.location)
                    guard let uri = attributes.string("URI") else {
                        throw ManifestError(.malformed, location: line.location, "EXT-X-I-FRAME-STREAM-INF has no URI")
                    }
                    var rendition = rendition(attributes, playlist: URLReference.resolve(uri, against: url))
                    rendition.isIFrameOnly = true
                    rendition.kind = .video
                    renditions.append(rendition)
                case "#EXT-X-MEDIA":
                    let attributes = try HLSAttributeList(tag.value, location: line.location)
                    // Alternative renditions with a playlist of their own; those without a URI are in the variants.
                    guard let uri = attributes.string("URI") else { continue }
                    var rendition = rendition(attributes, playlist: URLReference.resolve(uri, against: url))
                    rendition.id = attributes.string("NAME")
                    switch attributes.string("TYPE") {
                    case "VIDEO": rendition.kind = .video
                    case "AUDIO": rendition.kind = .audio
                    case "SUBTITLES", "CLOSED-CAPTIONS": rendition.kind = .text
                    default: rendition.kind = .unknown
                    }
                    renditions.append(rendition)
                case "#EXT-X-SESSION-KEY":
                    // Keys of the whole presentation: every rendition is encrypted unless the method is NONE.
                    let attributes = try HLSAttributeList(tag.value, location: line.location)
                    if attributes.string("METHOD") != "NONE" { sessionEncrypted = true }
                case "#EXTINF":
                    throw ManifestError(.malformed, location: line.location, "a master playlist has a segment (EXTINF)")
                default:
                    continue
                }
            } else if !line.isComment {
                guard let stream = pending else {
                    throw ManifestError(.malformed, location: line.location, "URI '\(line.text)' follows no EXT-X-STREAM-INF")
                }
                renditions.append(rendition(stream.attributes, playlist: URLReference.resolve(String(line.text), against: url)))
                pending = nil
            }
        }
        if let stream = pending {
            throw ManifestError(.malformed, location: stream.line.location, "EXT-X-STREAM-INF is followed by no URI")
        }
        guard !renditions.isEmpty else { throw ManifestError(.empty, location: "", "the master playlist names no playlist") }
        if sessionEncrypted {
            for index in renditions.indices { renditions[index].isEncrypted = true }
        }
        return StreamPresentation(format: .hls, url: url, isLive: false, periods: [StreamPeriod(renditions: renditions)],
                                  duration: nil)
    }

    private static func rendition(_ attributes: HLSAttributeList, playlist: String) -> StreamRendition {
        let resolution = attributes.resolution("RESOLUTION")
        let codecs = attributes.string("CODECS")
        var rendition = StreamRendition(kind: kind(codecs: codecs, hasResolution: resolution != nil),
                                        bandwidth: attributes.integer("BANDWIDTH"), width: resolution?.width,
                                        height: resolution?.height, codecs: codecs, frameRate: attributes.string("FRAME-RATE"),
                                        content: .mediaPlaylist(url: playlist))
        rendition.averageBandwidth = attributes.integer("AVERAGE-BANDWIDTH")
        return rendition
    }
}
