import StreamManifests
import Testing

/// The one way a time is placed on a rendition's timeline: the segment on screen (through gaps and holes), the
/// segment whose start is nearest, the live edge. The expectations are read off the hand-written timelines below.
@Suite struct StreamTimelineTests {
    /// Segments of the given (start, end, gap) in seconds, numbered from 0.
    static func segments(_ spans: [(Double, Double, Bool)]) -> StreamSegments {
        StreamSegments(spans.enumerated().map { number, span in
            StreamSegment(resource: StreamResource(url: "s\(number).ts"), timeRange: .seconds(span.0) ..< .seconds(span.1),
                          number: Int64(number), isGap: span.2)
        })
    }

    /// 0-2, 2-4 (a gap), 4-6, then a hole of the timeline from 6 to 8, 8-10.
    static let timeline = segments([(0, 2, false), (2, 4, true), (4, 6, false), (8, 10, false)])

    @Test func theSegmentOnScreenThroughGapsAndHoles() {
        let timeline = Self.timeline
        #expect(timeline.index(playingAt: .seconds(-1)) == 0)       // before the first: the first
        #expect(timeline.index(playingAt: .seconds(1)) == 0)
        #expect(timeline.index(playingAt: .seconds(3)) == 1)        // the gap itself plays then
        #expect(timeline.index(playingAt: .seconds(7)) == 2)        // a hole: the one before it stays on screen
        #expect(timeline.index(playingAt: .seconds(12)) == 3)       // past the end: the last
        #expect(timeline.pictureIndex(atOrBefore: 1) == 0)          // a gap shows the last picture before it
        #expect(timeline.pictureIndex(atOrBefore: 2) == 2)
        #expect(Self.segments([(0, 2, true), (2, 4, true)]).pictureIndex(atOrBefore: 1) == nil)
        #expect(Self.segments([]).index(playingAt: .seconds(1)) == nil)
    }

    @Test func theSegmentStartingNearestATime() {
        let timeline = Self.timeline
        #expect(timeline.index(startingNearest: .seconds(0.9)) == 0)   // the next starts a gap: not taken
        #expect(Self.segments([(0, 2, false), (2, 4, false)]).index(startingNearest: .seconds(1)) == 0)   // a tie: the earlier
        #expect(Self.segments([(0, 2, false), (2, 4, false)]).index(startingNearest: .seconds(1.5)) == 1)
        // While a gap plays, the start after it is taken.
        #expect(timeline.index(startingNearest: .seconds(2.5)) == 2)
        #expect(timeline.index(startingNearest: .seconds(3.5)) == 2)
        #expect(timeline.index(startingNearest: .seconds(7.5)) == 3)   // in the hole, 8 s is nearer than 4 s
        #expect(Self.segments([(0, 2, true)]).index(startingNearest: .seconds(1)) == nil)
    }

    @Test func gapsAreLookedPastABoundedWay() {
        let many = Self.segments([(0, 1, false)] + (1...1_500).map { (Double($0), Double($0 + 1), true) })
        #expect(many.pictureIndex(atOrBefore: 900) == 0)
        #expect(many.pictureIndex(atOrBefore: 1_500) == nil)   // past maximumGapsSkipped
    }

    @Test func theLiveEdgeIsWhereTheSegmentPlayingNowStarts() throws {
        let manifest = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z"
                 minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
              <Period id="0" start="PT0S"><AdaptationSet mimeType="video/mp4">
                <SegmentTemplate timescale="1" duration="2" startNumber="0" media="$Number$.m4s" initialization="init.mp4"/>
                <Representation id="v" bandwidth="100000" width="320" height="180" codecs="avc1.64001f"/>
              </AdaptationSet></Period>
            </MPD>
            """
        let presentation = try StreamManifest.read(manifest, url: "https://live.example/manifest.mpd")
        let segments = try #require(presentation.periods.first?.renditions.first?.segments)
        #expect(segments.count == nil)
        // 101 s after the availability start the segment of 100-102 s is being made.
        #expect(segments.liveEdge(availabilityStart: presentation.availabilityStartTime, now: .seconds(101)) == .seconds(100))
        #expect(Self.timeline.liveEdge(availabilityStart: presentation.availabilityStartTime, now: .seconds(5)) == nil)
    }
}
