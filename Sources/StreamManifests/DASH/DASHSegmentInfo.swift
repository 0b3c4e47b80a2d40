import XMLDocuments
/// What a `SegmentBase`, `SegmentList` or `SegmentTemplate` says (ISO/IEC 23009-1 section 5.3.9), merged down the
/// levels it may stand at: Period, AdaptationSet, Representation. The deepest level's kind of element wins; of that
/// kind, a deeper element's attributes and children replace a shallower one's.
struct DASHSegmentInfo {
    enum Kind { case base, list, template }

    var kind: Kind
    var timescale: Int64?
    var presentationTimeOffset: Int64?
    var duration: Int64?
    var startNumber: Int64?
    var endNumber: Int64?
    var indexRange: Range<UInt64>?
    var media: String?
    var initializationTemplate: String?
    /// The `Initialization` child: a URL (nil: the segment's own) and a byte range.
    var initialization: (sourceURL: String?, range: Range<UInt64>?)?
    var timeline: XMLElement?
    var segmentURLs: [XMLElement]?

    /// The segment information in `elements` (outermost first; each nil or the level's element of one of the three
    /// kinds); nil when no level has any.
    init?(levels elements: [XMLElement?], location: String) throws(ManifestError) {
        guard let deepest = elements.last(where: { $0 != nil }) ?? nil, let kind = Self.kind(of: deepest) else { return nil }
        self.kind = kind
        for element in elements.compactMap({ $0 }) where Self.kind(of: element) == kind {
            try merge(element, location: location)
        }
    }

    private static func kind(of element: XMLElement) -> Kind? {
        switch element.name {
        case "SegmentBase": .base
        case "SegmentList": .list
        case "SegmentTemplate": .template
        default: nil
        }
    }

    private mutating func merge(_ element: XMLElement, location: String) throws(ManifestError) {
        func integer(_ name: String) throws(ManifestError) -> Int64? {
            guard let text = element[attribute: name] else { return nil }
            guard let value = Int64(text.trimmingASCIIWhitespace()) else {
                throw ManifestError(.malformed, location: location, "\(element.name)@\(name) '\(text)' is not an integer")
            }
            return value
        }
        timescale = try integer("timescale") ?? timescale
        presentationTimeOffset = try integer("presentationTimeOffset") ?? presentationTimeOffset
        duration = try integer("duration") ?? duration
        startNumber = try integer("startNumber") ?? startNumber
        endNumber = try integer("endNumber") ?? endNumber
        if let text = element[attribute: "indexRange"] {
            indexRange = try Self.byteRange(text, what: "\(element.name)@indexRange", location: location)
        }
        media = element[attribute: "media"] ?? media
        initializationTemplate = element[attribute: "initialization"] ?? initializationTemplate
        if let child = element.child(named: "Initialization") {
            let range = try child[attribute: "range"].map { text throws(ManifestError) in
                try Self.byteRange(text, what: "Initialization@range", location: location)
            }
            initialization = (child[attribute: "sourceURL"], range)
        }
        if let child = element.child(named: "SegmentTimeline") { timeline = child }
        let urls = element.children(named: "SegmentURL")
        if !urls.isEmpty { segmentURLs = urls }
    }

    /// A DASH byte range, `first-last` inclusive.
    static func byteRange(_ text: String, what: String, location: String) throws(ManifestError) -> Range<UInt64> {
        let parts = text.trimmingASCIIWhitespace().split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = UInt64(parts[0]), let last = UInt64(parts[1]), first <= last,
              last < StreamResource.maximumOffset else {
            throw ManifestError(.malformed, location: location, "\(what) '\(text)' is not <first>-<last> within 2^63 - 1 bytes")
        }
        return first ..< last + 1
    }
}
