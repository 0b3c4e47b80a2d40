import StreamManifests
import Testing

/// DASH manifests: each way of addressing segments (ISO/IEC 23009-1 section 5.3.9), periods and BaseURLs.
@Suite struct DASHManifestReaderTests {
    static let url = "https://cdn.example/vod/manifest.mpd"

    func read(_ text: String) throws -> StreamPresentation {
        try StreamManifest.read(text, url: Self.url)
    }

    func all(_ segments: StreamSegments?) throws -> [StreamSegment] {
        let segments = try #require(segments)
        let count = try #require(segments.count)
        return (0 ..< count).compactMap { segments.segment(at: $0) }
    }

    /// The container's media type is kept, inherited from the AdaptationSet: what tells a WebM representation, whose
    /// SegmentBase `indexRange` names Cues rather than a sidx.
    @Test func theMediaTypeTellsWebMFromMP4() throws {
        let presentation = try read("""
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT3S"><Period>
          <AdaptationSet mimeType="video/webm" codecs="vp9"><Representation id="w" bandwidth="1">
            <BaseURL>video.webm</BaseURL><SegmentBase indexRange="569-701"><Initialization range="0-568"/></SegmentBase>
          </Representation></AdaptationSet>
          <AdaptationSet><Representation id="m" mimeType="video/mp4" bandwidth="1"><BaseURL>video.mp4</BaseURL>
          </Representation></AdaptationSet>
          <AdaptationSet><Representation id="x" mimeType="video/x-matroska; codecs=avc1" bandwidth="1"><BaseURL>a.mkv</BaseURL>
          </Representation></AdaptationSet>
        </Period></MPD>
        """)
        let renditions = try #require(presentation.periods.first?.renditions)
        #expect(renditions.map(\.mimeType) == ["video/webm", "video/mp4", "video/x-matroska; codecs=avc1"])
        #expect(renditions.map(\.isMatroska) == [true, false, true])
        let webm = try #require(renditions[0].segments?.first)
        #expect(webm.indexRange == 569 ..< 702 && webm.initialization?.byteRange == 0 ..< 569)
    }

    @Test func templateWithNumberAndDuration() throws {
        let presentation = try read("""
            <?xml version="1.0" encoding="utf-8"?>
            <!-- made by hand -->
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT9.5S" minBufferTime="PT2S">
              <Period id="p0">
                <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
                  <SegmentTemplate timescale="90000" duration="180000" startNumber="5"
                                   initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/seg-$Number%04d$.m4s"/>
                  <Representation id="720p" bandwidth="3000000" width="1280" height="720" codecs="avc1.64001f"/>
                  <Representation id="360p" bandwidth="800000" width="640" height="360" codecs="avc1.64001e"/>
                </AdaptationSet>
                <AdaptationSet contentType="audio" mimeType="audio/mp4">
                  <SegmentTemplate timescale="48000" duration="96000" media="a-$Number$.m4s" initialization="a-init.mp4"/>
                  <Representation id="a" bandwidth="128000" codecs="mp4a.40.2"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(presentation.format == .dash && !presentation.isLive)
        #expect(presentation.duration == .milliseconds(9_500))
        let period = presentation.periods[0]
        #expect(period.renditions.map(\.kind) == [.video, .video, .audio])
        let segments = try all(period.renditions[1].segments)
        // 9.5 s of 2 s segments: five, the last cut at the period's end.
        #expect(segments.map(\.resource.url) == (5...9).map { "https://cdn.example/vod/360p/seg-000\($0).m4s" })
        #expect(segments.map(\.number) == [5, 6, 7, 8, 9])
        #expect(segments.last?.timeRange == .seconds(8) ..< .milliseconds(9_500))
        #expect(segments[0].initialization == StreamResource(url: "https://cdn.example/vod/360p/init.mp4"))
        #expect(period.renditions[1].segments?.index(containing: .milliseconds(3_999)) == 1)
        #expect(period.renditions[1].segments?.index(containing: .milliseconds(9_500)) == nil)
    }

    @Test func templateWithTimeAndTimeline() throws {
        let presentation = try read("""
            <MPD type="static" mediaPresentationDuration="PT20S">
              <Period>
                <AdaptationSet mimeType="video/mp4" width="640" height="360">
                  <SegmentTemplate timescale="1000" presentationTimeOffset="500" media="v/$Time$.m4s" initialization="v/init.mp4">
                    <SegmentTimeline>
                      <S t="500" d="4000" r="2"/>
                      <S d="3000"/>
                      <S d="2500" r="-1"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                  <Representation id="v" bandwidth="1"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        let segments = try all(presentation.periods[0].renditions[0].segments)
        // 0..12 s in three, 12..15 s, then 2.5 s segments to the end at 20 s.
        #expect(segments.map { $0.resource.url.split(separator: "/").last.map(String.init) } == ["500.m4s", "4500.m4s", "8500.m4s", "12500.m4s",
                                                                         "15500.m4s", "18000.m4s"])
        #expect(segments.map(\.timeRange.lowerBound) == [.zero, .seconds(4), .seconds(8), .seconds(12), .seconds(15),
                                                       .milliseconds(17_500)])
        #expect(segments.last?.timeRange.upperBound == .seconds(20))
        #expect(segments.map(\.mediaStart) == [.milliseconds(500), .milliseconds(4_500), .milliseconds(8_500),
                                               .milliseconds(12_500), .milliseconds(15_500), .seconds(18)])
        #expect(presentation.periods[0].renditions[0].segments?.index(containing: .milliseconds(14_999)) == 3)
    }

    /// A SegmentTimeline with a hole (0-2 s, then 10-12 and 12-14 s): no segment plays at 5 s, and the last one
    /// that starts before then is the first; none starts before 0 s.
    @Test func aTimelineHoleIsInTheSegmentBeforeIt() throws {
        let presentation = try read("""
            <MPD type="static" mediaPresentationDuration="PT14S"><Period><AdaptationSet mimeType="video/mp4">
              <SegmentTemplate timescale="1" media="$Time$.m4s" initialization="init.mp4">
                <SegmentTimeline><S t="0" d="2"/><S t="10" d="2" r="1"/></SegmentTimeline>
              </SegmentTemplate><Representation id="v" bandwidth="1"/>
            </AdaptationSet></Period></MPD>
            """)
        let segments = try #require(presentation.periods[0].renditions[0].segments)
        #expect(segments.index(containing: .seconds(5)) == nil)
        #expect(segments.index(startingAtOrBefore: .seconds(5)) == 0)
        #expect(segments.index(startingAtOrBefore: .seconds(11)) == 1)
        #expect(segments.index(startingAtOrBefore: .seconds(20)) == 2)
        #expect(segments.index(startingAtOrBefore: .seconds(-1)) == nil)
    }

    @Test func segmentListWithRangesAndSegmentBaseAcrossPeriods() throws {
        let presentation = try read("""
            <MPD type="static" mediaPresentationDuration="PT30S">
              <BaseURL>media/</BaseURL>
              <Period duration="PT10S">
                <AdaptationSet mimeType="video/mp4">
                  <Representation id="1" bandwidth="500000" width="320" height="180">
                    <BaseURL>one.mp4</BaseURL>
                    <SegmentList timescale="1000" duration="5000">
                      <Initialization sourceURL="one.mp4" range="0-799"/>
                      <SegmentURL mediaRange="800-1999"/>
                      <SegmentURL media="two.mp4" mediaRange="0-999"/>
                    </SegmentList>
                  </Representation>
                </AdaptationSet>
              </Period>
              <Period id="second">
                <BaseURL>https://other.example/p2/</BaseURL>
                <AdaptationSet mimeType="video/mp4">
                  <Representation id="2" bandwidth="1" width="640" height="360">
                    <BaseURL>movie.mp4</BaseURL>
                    <SegmentBase timescale="90000" presentationTimeOffset="900000" indexRange="700-899">
                      <Initialization range="0-699"/>
                    </SegmentBase>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(presentation.periods.map(\.start) == [.zero, .seconds(10)])
        #expect(presentation.periods.map(\.duration) == [.seconds(10), .seconds(20)])
        let listed = try all(presentation.periods[0].renditions[0].segments)
        #expect(listed.map(\.resource) == [
            StreamResource(url: "https://cdn.example/vod/media/one.mp4", byteRange: 800 ..< 2_000),
            StreamResource(url: "https://cdn.example/vod/media/two.mp4", byteRange: 0 ..< 1_000),
        ])
        #expect(listed.map(\.timeRange) == [.zero ..< .seconds(5), .seconds(5) ..< .seconds(10)])
        #expect(listed[0].initialization == StreamResource(url: "https://cdn.example/vod/media/one.mp4", byteRange: 0 ..< 800))
        let based = try all(presentation.periods[1].renditions[0].segments)
        #expect(based.count == 1)
        #expect(based[0].resource == StreamResource(url: "https://other.example/p2/movie.mp4"))
        #expect(based[0].indexRange == 700 ..< 900)
        #expect(based[0].timeRange == .seconds(10) ..< .seconds(30))
        #expect(based[0].mediaStart == .seconds(10))
        #expect(presentation.period(at: .seconds(12))?.id == "second")
    }

    @Test func liveManifestWithAnOpenTemplate() throws {
        let presentation = try read("""
            <MPD type="dynamic" availabilityStartTime="2024-02-29T12:00:00Z" timeShiftBufferDepth="PT1M" minimumUpdatePeriod="PT2S">
              <Period start="PT0S">
                <AdaptationSet mimeType="video/mp4">
                  <SegmentTemplate timescale="1" duration="2" startNumber="0" media="s$Number$.m4s"/>
                  <Representation id="v" bandwidth="1" width="1280" height="720"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(presentation.isLive)
        #expect(presentation.availabilityStartTime == StreamDate(parsing: "2024-02-29T12:00:00Z"))
        #expect(presentation.timeShiftBufferDepth == .seconds(60))
        let segments = try #require(presentation.periods[0].renditions[0].segments)
        #expect(segments.count == nil)
        #expect(segments.segment(containing: .seconds(3_600))?.resource.url == "https://cdn.example/vod/s1800.m4s")
    }

    @Test func aTemplateClaimingBillionsOfSegmentsCostsNothing() throws {
        let presentation = try read("""
            <MPD type="static" mediaPresentationDuration="P9999D">
              <Period><AdaptationSet mimeType="video/mp4">
                <SegmentTemplate timescale="1000" media="$Time$.m4s">
                  <SegmentTimeline><S t="0" d="1" r="9000000000000000"/></SegmentTimeline>
                </SegmentTemplate>
                <Representation id="v" bandwidth="1"/>
              </AdaptationSet></Period>
            </MPD>
            """)
        let segments = try #require(presentation.periods[0].renditions[0].segments)
        #expect(segments.count == 9_000_000_000_000_001)
        #expect(segments.segment(containing: .seconds(86_400))?.resource.url == "https://cdn.example/vod/86400000.m4s")
    }

    @Test func errorsSayWhereAndWhat() {
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "MPD/Period[1]/AdaptationSet[1]/Representation[1]",
                                      "SegmentTemplate names $Time$ but has no SegmentTimeline")) {
            try read("<MPD><Period><AdaptationSet><SegmentTemplate duration=\"2\" media=\"$Time$\"/><Representation/></AdaptationSet></Period></MPD>")
        }
        #expect(throws: ManifestError(.unsupported, url: Self.url, location: "MPD/Period[1]/AdaptationSet[1]/Representation[1]",
                                      "template 'x$SubNumber$' names the identifier $SubNumber$")) {
            try read("<MPD><Period><AdaptationSet><SegmentTemplate duration=\"2\" media=\"x$SubNumber$\"/><Representation/></AdaptationSet></Period></MPD>")
        }
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 2", "end tag Period does not close AdaptationSet")) {
            try read("<MPD><Period>\n<AdaptationSet></Period></MPD>")
        }
        #expect(throws: ManifestError(.unsupported, url: Self.url, location: "line 1",
                                      "the document type declaration has an internal subset (entity declarations are not read)")) {
            try read("<!DOCTYPE MPD [<!ENTITY a \"aaaa\">]><MPD>&a;</MPD>")
        }
        #expect(throws: ManifestError(.notAManifest, url: "x", "neither an HLS playlist nor a DASH manifest: it starts '<html><body></bo'")) {
            try StreamManifest.read("<html><body></body></html>", url: "x")
        }
        #expect(throws: ManifestError(.empty, url: Self.url, location: "MPD", "no period has a representation")) {
            try read("<MPD><Period/></MPD>")
        }
        // A range whose length does not fit an Int (a reader would trap counting it) is refused where it is read.
        let huge = #expect(throws: ManifestError.self) {
            try read("<MPD><Period><AdaptationSet><Representation><SegmentList duration=\"1\">"
                     + "<SegmentURL media=\"a.m4s\" mediaRange=\"0-9223372036854775807\"/></SegmentList>"
                     + "</Representation></AdaptationSet></Period></MPD>")
        }
        #expect(huge?.code == .malformed && huge?.detail.contains("within 2^63 - 1 bytes") == true, "\(String(describing: huge))")
        var limits = ManifestLimits()
        limits.maximumDepth = 3
        #expect(throws: ManifestError(.limitExceeded, url: nil, location: "line 1", "elements nest deeper than 3")) {
            try StreamManifest.read("<MPD><Period><AdaptationSet><Representation/></AdaptationSet></Period></MPD>", url: nil,
                                    limits: limits)
        }
    }
}
