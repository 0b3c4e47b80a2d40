import Foundation
import StreamManifests
import Testing

/// Inputs ManifestFuzzer found that trapped (Fuzz/findings/manifest/), each with the answer its construction implies.
@Suite struct ManifestFuzzFindingTests {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/findings/manifest")

    /// The segments of every rendition of the finding `name`, read as a manifest at an example URL.
    static func segmentLists(of name: String) throws -> [StreamSegments] {
        let text = String(decoding: try Data(contentsOf: findings.appendingPathComponent(name)), as: UTF8.self)
        let presentation = try StreamManifest.read(text, url: "https://example.com/streams/a/manifest")
        return presentation.periods.flatMap(\.renditions).compactMap(\.segments)
    }

    /// A live manifest with a fixed-duration template asked for segments at the ends of `Duration`: the time less the
    /// period's start passed Int64 seconds, where `Duration.components` traps. No segment plays then.
    @Test func timesPastInt64SecondsFindNoSegment() throws {
        var asked = 0
        for segments in try Self.segmentLists(of: "time-past-int64-seconds.mpd") {
            #expect(segments.segment(containing: .seconds(Int64.min)) == nil)
            #expect(segments.segment(containing: .seconds(Int64.max)) == nil)
            asked += 1
        }
        #expect(asked > 0)
    }

    /// A live template of 1 s segments with no end (its endNumber and the presentation's duration mangled): the
    /// segment at index Int.max started Int64.max seconds after the period, where no lookup finds it again. Segments
    /// end 2^40 s after their period starts; each one there is found at its own start.
    @Test func noSegmentStartsPastWhereTimesEnd() throws {
        var asked = 0
        for segments in try Self.segmentLists(of: "segment-at-int64-max-ticks.mpd") {
            for index in [0, 1, Int.max, (segments.count ?? 2) - 1] {
                guard let segment = segments.segment(at: index), !segment.timeRange.isEmpty else { continue }
                #expect(segments.index(containing: segment.timeRange.lowerBound) == index)
                asked += 1
            }
            if segments.count == nil { #expect(segments.segment(at: Int.max) == nil) }
        }
        #expect(asked > 0)
    }
}
