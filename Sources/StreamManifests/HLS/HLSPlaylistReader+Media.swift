extension HLSPlaylistReader {
    /// What the tags before a URI line say about the segment it names.
    private struct PendingSegment {
        var duration: Duration?
        var byteRange: (length: UInt64, offset: UInt64?)?
        var isGap = false
        var programDateTime: StreamDate?
    }

    static func readMedia(_ lines: HLSLines, url: String?, limits: ManifestLimits) throws(ManifestError) -> StreamPresentation {
        var segments: [StreamSegment] = []
        var number: Int64 = 0
        var discontinuity: Int64 = 0
        var pending = PendingSegment()
        var initialization: StreamResource?
        var encrypted = false
        var anyEncrypted = false
        var ended = false
        var isVOD = false
        var iFramesOnly = false
        var elapsed = Duration.zero
        var lastDate: (date: StreamDate, at: Duration)?
        for line in lines.dropFirst() {
            if let tag = line.tag {
                let location = line.location
                switch tag.name {
                case "#EXTINF":
                    let durationText = tag.value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    guard let duration = DecimalSeconds.duration(durationText.trimmingASCIIWhitespace()) else {
                        throw ManifestError(.malformed, location: location, "EXTINF duration '\(durationText)' is not a number of seconds")
                    }
                    pending.duration = duration
                case "#EXT-X-BYTERANGE":
                    guard let range = byteRange(tag.value) else {
                        throw ManifestError(.malformed, location: location, "EXT-X-BYTERANGE '\(tag.value)' is not <length>[@<offset>]")
                    }
                    pending.byteRange = range
                case "#EXT-X-MEDIA-SEQUENCE":
                    guard segments.isEmpty, let value = Int64(tag.value), value >= 0 else {
                        throw ManifestError(.malformed, location: location, "EXT-X-MEDIA-SEQUENCE '\(tag.value)' is not a number before the first segment")
                    }
                    number = value
                case "#EXT-X-DISCONTINUITY-SEQUENCE":
                    guard segments.isEmpty, let value = Int64(tag.value), value >= 0 else {
                        throw ManifestError(.malformed, location: location, "EXT-X-DISCONTINUITY-SEQUENCE '\(tag.value)' is not a number before the first segment")
                    }
                    discontinuity = value
                case "#EXT-X-DISCONTINUITY":
                    discontinuity = discontinuity.addingReportingOverflow(1).partialValue
                case "#EXT-X-MAP":
                    let attributes = try HLSAttributeList(tag.value, location: location)
                    guard let uri = attributes.string("URI") else {
                        throw ManifestError(.malformed, location: location, "EXT-X-MAP has no URI")
                    }
                    var range: Range<UInt64>?
                    if let text = attributes.string("BYTERANGE") {
                        guard let parsed = byteRange(Substring(text)), let bytes = bytes(parsed.length, at: parsed.offset ?? 0) else {
                            throw ManifestError(.malformed, location: location, "EXT-X-MAP BYTERANGE '\(text)' is not <length>[@<offset>]")
                        }
                        range = bytes
                    }
                    initialization = StreamResource(url: URLReference.resolve(uri, against: url), byteRange: range)
                case "#EXT-X-KEY":
                    let attributes = try HLSAttributeList(tag.value, location: location)
                    encrypted = attributes.string("METHOD") != "NONE"
                case "#EXT-X-PROGRAM-DATE-TIME":
                    guard let date = StreamDate(parsing: String(tag.value)) else {
                        throw ManifestError(.malformed, location: location, "EXT-X-PROGRAM-DATE-TIME '\(tag.value)' is not an ISO 8601 date")
                    }
                    pending.programDateTime = date
                case "#EXT-X-GAP":
                    pending.isGap = true
                case "#EXT-X-ENDLIST":
                    ended = true
                case "#EXT-X-PLAYLIST-TYPE":
                    isVOD = tag.value == "VOD"
                case "#EXT-X-I-FRAMES-ONLY":
                    iFramesOnly = true
                case "#EXT-X-STREAM-INF", "#EXT-X-I-FRAME-STREAM-INF":
                    throw ManifestError(.malformed, location: location, "a media playlist names a variant (\(tag.name.dropFirst()))")
                default:
                    continue
                }
            } else if !line.isComment {
                let location = line.location
                guard let duration = pending.duration else {
                    throw ManifestError(.malformed, location: location, "segment '\(line.text)' has no EXTINF")
                }
                guard segments.count < limits.maximumSegments else {
                    throw ManifestError(.limitExceeded, location: location, "more than \(limits.maximumSegments) segments")
                }
                let segmentURL = URLReference.resolve(String(line.text), against: url)
                var range: Range<UInt64>?
                if let (length, offset) = pending.byteRange {
                    // Without an offset, the bytes after the previous segment's, which must be of the same resource.
                    let start: UInt64
                    if let offset {
                        start = offset
                    } else if let previous = segments.last, previous.resource.url == segmentURL,
                              let previousRange = previous.resource.byteRange {
                        start = previousRange.upperBound
                    } else {
                        throw ManifestError(.malformed, location: location,
                                            "EXT-X-BYTERANGE without an offset follows no sub-range of the same resource")
                    }
                    guard let bytes = bytes(length, at: start) else {
                        throw ManifestError(.malformed, location: location, "EXT-X-BYTERANGE ends past 2^63 - 1 bytes")
                    }
                    range = bytes
                }
                let start = elapsed
                guard duration <= .seconds(DecimalSeconds.maximumSeconds) - elapsed else {
                    throw ManifestError(.limitExceeded, location: location, "the segments last more than \(DecimalSeconds.maximumSeconds) s")
                }
                elapsed += duration
                // A date carries on to later segments by their durations (RFC 8216 section 4.3.2.6).
                var date = pending.programDateTime
                if let date { lastDate = (date, start) } else if let lastDate {
                    date = StreamDate(sinceEpoch: lastDate.date.sinceEpoch + (start - lastDate.at), text: lastDate.date.text)
                }
                anyEncrypted = anyEncrypted || encrypted
                segments.append(StreamSegment(resource: StreamResource(url: segmentURL, byteRange: range),
                                              initialization: initialization, timeRange: start ..< elapsed, number: number,
                                              discontinuity: discontinuity, programDateTime: date, isGap: pending.isGap))
                number = number.addingReportingOverflow(1).partialValue
                pending = PendingSegment()
            }
        }
        let isLive = !ended && !isVOD
        if segments.isEmpty && !isLive {
            throw ManifestError(.empty, location: "", "the media playlist has no segment")
        }
        let codecsKind: StreamRendition.Kind = iFramesOnly ? .video : .unknown
        let rendition = StreamRendition(kind: codecsKind, isEncrypted: anyEncrypted, isIFrameOnly: iFramesOnly,
                                        content: .segments(StreamSegments(segments)))
        return StreamPresentation(format: .hls, url: url, isLive: isLive,
                                  periods: [StreamPeriod(duration: elapsed, renditions: [rendition])], duration: elapsed)
    }

    /// `<length>[@<offset>]`.
    private static func byteRange(_ text: Substring) -> (length: UInt64, offset: UInt64?)? {
        let parts = text.trimmingASCIIWhitespace().split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = UInt64(parts[0]) else { return nil }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = UInt64(parts[1]) else { return nil }
        return (length, offset)
    }

    /// `length` bytes from `start`, nil when they end past `StreamResource.maximumOffset`.
    private static func bytes(_ length: UInt64, at start: UInt64) -> Range<UInt64>? {
        let (end, overflow) = start.addingReportingOverflow(length)
        return overflow || end > StreamResource.maximumOffset ? nil : start ..< end
    }
}
