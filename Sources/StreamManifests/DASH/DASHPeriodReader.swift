import XMLDocuments
/// The renditions of one DASH Period: each Representation of each AdaptationSet, with what it inherits from them.
struct DASHPeriodReader {
    let element: XMLElement
    let location: String
    let start: Duration
    /// Where the period ends, when known.
    let end: Duration?
    let baseURL: String?
    let limits: ManifestLimits

    private static let segmentElementNames = ["SegmentBase", "SegmentList", "SegmentTemplate"]

    private static func segmentElement(of element: XMLElement) -> XMLElement? {
        element.children.first { segmentElementNames.contains($0.name) }
    }

    func renditions() throws(ManifestError) -> [StreamRendition] {
        var renditions: [StreamRendition] = []
        for (setIndex, set) in element.children(named: "AdaptationSet").enumerated() {
            let setLocation = "\(location)/AdaptationSet[\(setIndex + 1)]"
            let setBase = DASHManifestReader.baseURL(of: set, under: baseURL)
            let trickMode = (set.children(named: "EssentialProperty") + set.children(named: "SupplementalProperty")).contains {
                $0[attribute: "schemeIdUri"] == "http://dashif.org/guidelines/trickmode"
            }
            for (index, representation) in set.children(named: "Representation").enumerated() {
                let here = "\(setLocation)/Representation[\(index + 1)]"
                let base = DASHManifestReader.baseURL(of: representation, under: setBase)
                let attribute = { (name: String) in representation[attribute: name] ?? set[attribute: name] }
                let id = representation[attribute: "id"] ?? ""
                let bandwidth = representation[attribute: "bandwidth"].flatMap { Int64($0) }
                let levels = [element, set, representation].map(Self.segmentElement)
                let segments = try self.segments(DASHSegmentInfo(levels: levels, location: here), base: base,
                                                 representationID: id, bandwidth: bandwidth, location: here)
                let width = attribute("width").flatMap { Int($0) }
                let height = attribute("height").flatMap { Int($0) }
                let protected = !representation.children(named: "ContentProtection").isEmpty
                    || !set.children(named: "ContentProtection").isEmpty
                renditions.append(StreamRendition(
                    id: representation[attribute: "id"],
                    kind: Self.kind(contentType: attribute("contentType"), mimeType: attribute("mimeType"),
                                    codecs: attribute("codecs"), hasSize: width != nil && height != nil),
                    bandwidth: bandwidth, width: width, height: height, codecs: attribute("codecs"),
                    frameRate: attribute("frameRate"), isEncrypted: protected, isIFrameOnly: trickMode,
                    content: .segments(segments), mimeType: attribute("mimeType")))
            }
        }
        return renditions
    }

    private static func kind(contentType: String?, mimeType: String?, codecs: String?, hasSize: Bool) -> StreamRendition.Kind {
        let type = contentType ?? mimeType.flatMap { $0.split(separator: "/").first.map(String.init) }
        switch type {
        case "video": return .video
        case "audio": return .audio
        case "text", "image", "application": return .text
        default: return HLSPlaylistReader.kind(codecs: codecs, hasResolution: hasSize)
        }
    }

    /// Where the period ends for a template or timeline that needs an end: known, or open for a live stream.
    private var openEnd: Duration { end ?? start + .seconds(DecimalSeconds.maximumSeconds) }

    private func segments(_ info: DASHSegmentInfo?, base: String?, representationID: String, bandwidth: Int64?,
                          location: String) throws(ManifestError) -> StreamSegments {
        let timescale = info?.timescale ?? 1
        guard timescale > 0 else { throw ManifestError(.malformed, location: location, "timescale \(timescale) is not positive") }
        let offset = info?.presentationTimeOffset ?? 0
        guard let info else {
            // A representation with no segment information is one segment: the resource its BaseURL names.
            guard let base else { throw ManifestError(.malformed, location: location, "the representation names no media") }
            return StreamSegments([StreamSegment(resource: StreamResource(url: base), timeRange: start ..< openEnd, number: 1,
                                                 mediaStart: .zero)])
        }
        let initialization = info.initialization.map { initialization in
            StreamResource(url: initialization.sourceURL.map { URLReference.resolve($0, against: base) } ?? base ?? "",
                           byteRange: initialization.range)
        }
        switch info.kind {
        case .base:
            guard let base else { throw ManifestError(.malformed, location: location, "SegmentBase has no BaseURL to apply to") }
            return StreamSegments([StreamSegment(resource: StreamResource(url: base), initialization: initialization,
                                                 timeRange: start ..< openEnd, number: 1,
                                                 mediaStart: Duration.ticks(offset, timescale: timescale),
                                                 indexRange: info.indexRange)])
        case .list:
            return try listedSegments(info, base: base, initialization: initialization, timescale: timescale,
                                      offset: offset, location: location)
        case .template:
            guard let mediaText = info.media else {
                throw ManifestError(.malformed, location: location, "SegmentTemplate has no media template")
            }
            let media = try DASHTemplate(mediaText, location: location)
            var templateInitialization = initialization
            if let text = info.initializationTemplate {
                let expanded = try DASHTemplate(text, location: location)
                    .expanded(representationID: representationID, number: 0, bandwidth: bandwidth, time: 0)
                templateInitialization = StreamResource(url: URLReference.resolve(expanded, against: base))
            }
            let timing = try self.timing(info, timescale: timescale, offset: offset, location: location)
            if media.usesTime, case .fixed = timing {
                throw ManifestError(.malformed, location: location, "SegmentTemplate names $Time$ but has no SegmentTimeline")
            }
            return StreamSegments(template: DASHTemplateSegments(
                media: media, baseURL: base ?? "", representationID: representationID, bandwidth: bandwidth,
                initialization: templateInitialization, timescale: timescale, presentationTimeOffset: offset,
                periodStart: start, periodEnd: end, startNumber: info.startNumber ?? 1, endNumber: info.endNumber,
                timing: timing))
        }
    }

    /// A SegmentTimeline's runs, or the fixed duration.
    private func timing(_ info: DASHSegmentInfo, timescale: Int64, offset: Int64,
                        location: String) throws(ManifestError) -> DASHTemplateSegments.Timing {
        guard let timeline = info.timeline else {
            guard let duration = info.duration, duration > 0 else {
                throw ManifestError(.malformed, location: location, "the segments have neither a duration nor a SegmentTimeline")
            }
            return .fixed(duration: duration)
        }
        let entries = timeline.children(named: "S")
        // Where a run of r="-1" without a following S stops: the period's end, in media ticks.
        let periodEndTicks = end.flatMap { ($0 - start).ticks(timescale: timescale) }.flatMap {
            $0.addingReportingOverflow(offset).overflow ? nil : $0 + offset
        }
        var runs: [DASHTemplateSegments.Run] = []
        var next: Int64 = 0
        var firstIndex: Int64 = 0
        for (index, entry) in entries.enumerated() {
            let here = "\(location)/SegmentTimeline/S[\(index + 1)]"
            func value(_ name: String) throws(ManifestError) -> Int64? {
                guard let text = entry[attribute: name] else { return nil }
                guard let number = Int64(text.trimmingASCIIWhitespace()) else {
                    throw ManifestError(.malformed, location: here, "S@\(name) '\(text)' is not an integer")
                }
                return number
            }
            let runStart = try value("t") ?? next
            guard runStart >= next else {
                throw ManifestError(.malformed, location: here, "S@t \(runStart) is before the end of the S before it (\(next))")
            }
            guard let duration = try value("d"), duration > 0 else {
                throw ManifestError(.malformed, location: here, "S has no positive duration")
            }
            let repeats = try value("r") ?? 0
            guard repeats >= -1 else { throw ManifestError(.malformed, location: here, "S@r \(repeats) is below -1") }
            var count: Int64?
            if repeats >= 0 {
                count = repeats + 1
            } else {
                // Until the next S's start, or the period's end; open-ended only for the last S of a live stream.
                let stop: Int64? = index + 1 < entries.count
                    ? try entries[index + 1][attribute: "t"].map { text throws(ManifestError) in
                        guard let number = Int64(text.trimmingASCIIWhitespace()) else {
                            throw ManifestError(.malformed, location: here, "the next S@t '\(text)' is not an integer")
                        }
                        return number
                    }
                    : periodEndTicks
                if let stop {
                    count = stop > runStart ? (stop - runStart - 1) / duration + 1 : 0
                } else if index + 1 < entries.count {
                    throw ManifestError(.malformed, location: here, "S@r is -1 and the next S has no t")
                }
            }
            runs.append(DASHTemplateSegments.Run(start: runStart, duration: duration, count: count, firstIndex: firstIndex))
            guard let count else { break }
            let (span, spanOverflow) = count.multipliedReportingOverflow(by: duration)
            let (end, endOverflow) = runStart.addingReportingOverflow(span)
            let (nextIndex, indexOverflow) = firstIndex.addingReportingOverflow(count)
            guard !spanOverflow, !endOverflow, !indexOverflow else {
                throw ManifestError(.limitExceeded, location: here, "the timeline passes 2^63 ticks or segments")
            }
            next = end
            firstIndex = nextIndex
        }
        return .timeline(runs)
    }

    private func listedSegments(_ info: DASHSegmentInfo, base: String?, initialization: StreamResource?, timescale: Int64,
                                offset: Int64, location: String) throws(ManifestError) -> StreamSegments {
        let urls = info.segmentURLs ?? []
        guard urls.count <= limits.maximumSegments else {
            throw ManifestError(.limitExceeded, location: location, "more than \(limits.maximumSegments) segments")
        }
        // The times come from the timeline or duration, as a template's would.
        let times = DASHTemplateSegments(
            media: try DASHTemplate("", location: location), baseURL: "", representationID: "", bandwidth: nil,
            initialization: nil, timescale: timescale, presentationTimeOffset: offset, periodStart: start, periodEnd: end,
            startNumber: info.startNumber ?? 1, endNumber: nil,
            timing: info.timeline == nil && info.duration == nil && urls.count == 1
                ? .fixed(duration: Int64.max) : try timing(info, timescale: timescale, offset: offset, location: location))
        var segments: [StreamSegment] = []
        for (index, element) in urls.enumerated() {
            let here = "\(location)/SegmentURL[\(index + 1)]"
            guard let position = times.segment(at: index) else { break }
            let media = element[attribute: "media"].map { URLReference.resolve($0, against: base) } ?? base
            guard let media else { throw ManifestError(.malformed, location: here, "SegmentURL has no media and no BaseURL applies") }
            let range = try element[attribute: "mediaRange"].map { text throws(ManifestError) in
                try DASHSegmentInfo.byteRange(text, what: "SegmentURL@mediaRange", location: here)
            }
            segments.append(StreamSegment(resource: StreamResource(url: media, byteRange: range), initialization: initialization,
                                          timeRange: position.timeRange, number: position.number,
                                          mediaStart: position.mediaStart))
        }
        return StreamSegments(segments)
    }
}
