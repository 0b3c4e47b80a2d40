/// A DASH `SegmentTemplate` `media` or `initialization` string (ISO/IEC 23009-1 section 5.3.9.4.4), split into
/// literal text and identifiers: `$RepresentationID$`, `$Number$`, `$Bandwidth$`, `$Time$` (the last three with an
/// optional `%0<width>d` format tag), and `$$` for a dollar sign.
struct DASHTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case representationID
        case number(width: Int)
        case bandwidth(width: Int)
        case time(width: Int)
    }

    var parts: [Part]

    /// Whether the template names `$Time$` (and so needs a SegmentTimeline).
    var usesTime: Bool { parts.contains { if case .time = $0 { true } else { false } } }

    /// Whether the template names `$Number$`.
    var usesNumber: Bool { parts.contains { if case .number = $0 { true } else { false } } }

    /// Reads `text`.
    /// - Throws: `ManifestError` `malformed` for an unclosed `$` or a format tag on `$RepresentationID$`,
    ///   `unsupported` for an identifier this reader does not know (`$SubNumber$`).
    init(_ text: String, location: String) throws(ManifestError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                throw ManifestError(.malformed, location: location, "template '\(text)' has a '$' that is not closed")
            }
            let identifier = rest[afterDollar ..< close]
            rest = rest[rest.index(after: close)...]
            if identifier.isEmpty {
                literal += "$"
                continue
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            let name: Substring
            var width = 1
            if let percent = identifier.firstIndex(of: "%") {
                name = identifier[..<percent]
                let format = identifier[identifier.index(after: percent)...]
                guard format.hasPrefix("0"), format.hasSuffix("d"), format.count >= 3,
                      let parsed = Int(format.dropFirst().dropLast()), (1...20).contains(parsed) else {
                    throw ManifestError(.malformed, location: location, "template '\(text)' has the format tag '%\(format)'")
                }
                width = parsed
            } else {
                name = identifier
            }
            switch name {
            case "RepresentationID":
                guard width == 1, !identifier.contains("%") else {
                    throw ManifestError(.malformed, location: location, "template '\(text)' formats $RepresentationID$")
                }
                parts.append(.representationID)
            case "Number": parts.append(.number(width: width))
            case "Bandwidth": parts.append(.bandwidth(width: width))
            case "Time": parts.append(.time(width: width))
            default:
                throw ManifestError(.unsupported, location: location, "template '\(text)' names the identifier $\(name)$")
            }
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The template with its identifiers replaced.
    func expanded(representationID: String, number: Int64, bandwidth: Int64?, time: Int64) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .representationID: text += representationID
            case .number(let width): text += Self.padded(number, width: width)
            case .bandwidth(let width): text += Self.padded(bandwidth ?? 0, width: width)
            case .time(let width): text += Self.padded(time, width: width)
            }
        }
        return text
    }

    private static func padded(_ value: Int64, width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension DASHTemplateSegments {
    /// The segment at `index` with its URL, nil past the end.
    func streamSegment(at index: Int) -> StreamSegment? {
        guard let position = segment(at: index) else { return nil }
        let reference = media.expanded(representationID: representationID, number: position.number, bandwidth: bandwidth,
                                       time: position.time)
        return StreamSegment(resource: StreamResource(url: URLReference.resolve(reference, against: baseURL)),
                             initialization: initialization, timeRange: position.timeRange, number: position.number,
                             mediaStart: position.mediaStart)
    }
}
