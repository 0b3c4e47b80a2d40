import XMLDocuments
/// Reads DASH manifests (ISO/IEC 23009-1): the `MPD` element's periods, their adaptation sets and representations,
/// with `BaseURL`s resolved down the levels and each representation's segments from its `SegmentBase`,
/// `SegmentList` or `SegmentTemplate`.
enum DASHManifestReader {
    /// The manifest in `text`, read from `url`.
    /// - Throws: `ManifestError`: `notAManifest` when the root element is not `MPD`, `malformed` for XML or
    ///   attributes that contradict the standard (with the element's path), `unsupported` for what this reader does
    ///   not read, `limitExceeded` past `limits`, `empty` when no period has a representation.
    static func read(_ text: String, url: String?, limits: ManifestLimits) throws(ManifestError) -> StreamPresentation {
        do throws(ManifestError) {
            let root: XMLElement
            do {
                root = try XMLReader.root(of: text, maximumDepth: limits.maximumDepth)
            } catch {
                let code: ManifestError.Code = switch error.code {
                case .malformed: .malformed
                case .unsupported: .unsupported
                case .limitExceeded: .limitExceeded
                }
                throw ManifestError(code, location: error.line, error.detail)
            }
            guard root.name == "MPD" else {
                throw ManifestError(.notAManifest, location: root.name, "a DASH manifest's root element is MPD")
            }
            return try presentation(root, url: url, limits: limits)
        } catch {
            var located = error
            located.url = url
            throw located
        }
    }

    private static func duration(_ element: XMLElement, _ name: String, at location: String) throws(ManifestError) -> Duration? {
        guard let text = element[attribute: name] else { return nil }
        guard let value = ISO8601Duration.duration(text) else {
            throw ManifestError(.malformed, location: location, "\(element.name)@\(name) '\(text)' is not an ISO 8601 duration")
        }
        return value
    }

    /// `base` with the element's first `BaseURL` applied.
    static func baseURL(of element: XMLElement, under base: String?) -> String? {
        guard let text = element.child(named: "BaseURL")?.text.trimmingASCIIWhitespace(), !text.isEmpty else { return base }
        return URLReference.resolve(text, against: base)
    }

    private static func presentation(_ root: XMLElement, url: String?, limits: ManifestLimits) throws(ManifestError) -> StreamPresentation {
        let isLive = root[attribute: "type"] == "dynamic"
        let total = try duration(root, "mediaPresentationDuration", at: "MPD")
        var availabilityStart: StreamDate?
        if let text = root[attribute: "availabilityStartTime"] {
            guard let date = StreamDate(parsing: text) else {
                throw ManifestError(.malformed, location: "MPD", "MPD@availabilityStartTime '\(text)' is not an ISO 8601 date")
            }
            availabilityStart = date
        }
        let base = baseURL(of: root, under: url)
        let periodElements = root.children(named: "Period")
        guard periodElements.count <= limits.maximumPeriods else {
            throw ManifestError(.limitExceeded, location: "MPD", "more than \(limits.maximumPeriods) periods")
        }
        // Starts first (a period without one starts where the one before it ends), then ends (the next one's start).
        var starts: [Duration] = []
        var durations: [Duration?] = []
        for (index, element) in periodElements.enumerated() {
            let location = "MPD/Period[\(index + 1)]"
            let stated = try duration(element, "start", at: location)
            let length = try duration(element, "duration", at: location)
            let start: Duration
            if let stated {
                start = stated
            } else if index == 0 {
                start = .zero
            } else if let previousLength = durations[index - 1] {
                start = starts[index - 1] + previousLength
            } else {
                throw ManifestError(.malformed, location: location, "the period has no start, and the one before it no duration")
            }
            if let previous = starts.last, start < previous {
                throw ManifestError(.malformed, location: location, "the period starts before the one before it")
            }
            starts.append(start)
            durations.append(length)
        }
        var periods: [StreamPeriod] = []
        for (index, element) in periodElements.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : durations[index].map { starts[index] + $0 } ?? total
            let periodDuration = durations[index] ?? end.map { $0 - starts[index] }
            let reader = DASHPeriodReader(element: element, location: "MPD/Period[\(index + 1)]", start: starts[index],
                                          end: end.map { max($0, starts[index]) }, baseURL: baseURL(of: element, under: base),
                                          limits: limits)
            periods.append(StreamPeriod(id: element[attribute: "id"], start: starts[index], duration: periodDuration,
                                        renditions: try reader.renditions()))
        }
        guard periods.contains(where: { !$0.renditions.isEmpty }) else {
            throw ManifestError(.empty, location: "MPD", "no period has a representation")
        }
        let lastEnd = periods.last.flatMap { $0.end }
        return StreamPresentation(format: .dash, url: url, isLive: isLive, periods: periods, duration: total ?? (isLive ? nil : lastEnd),
                                  availabilityStartTime: availabilityStart,
                                  timeShiftBufferDepth: try duration(root, "timeShiftBufferDepth", at: "MPD"))
    }
}
