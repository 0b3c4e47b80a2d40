import StreamManifests
import Testing

/// HLS playlists: RFC 8216's examples (section 8) and each tag's rules.
@Suite struct HLSPlaylistReaderTests {
    static let url = "https://media.example.com/stream/index.m3u8"

    func read(_ text: String) throws -> StreamPresentation {
        try StreamManifest.read(text, url: Self.url)
    }

    /// RFC 8216 section 8.1, a simple media playlist.
    @Test func simpleMediaPlaylist() throws {
        let presentation = try read("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST
            """)
        #expect(presentation.format == .hls)
        #expect(!presentation.isLive)
        #expect(presentation.duration == .milliseconds(21_021))
        let segments = try segments(presentation)
        #expect(segments.map(\.resource.url) == ["http://media.example.com/first.ts", "http://media.example.com/second.ts",
                                                 "http://media.example.com/third.ts"])
        #expect(segments.map(\.timeRange.lowerBound) == [.zero, .milliseconds(9_009), .milliseconds(18_018)])
        #expect(segments.map(\.number) == [0, 1, 2])
        let all = try #require(presentation.periods[0].renditions[0].segments)
        #expect(all.index(containing: .milliseconds(9_008)) == 0)
        #expect(all.index(containing: .milliseconds(9_009)) == 1)
        #expect(all.index(containing: .milliseconds(21_021)) == nil)
        #expect(all.index(containing: .milliseconds(-1)) == nil)
    }

    func segments(_ presentation: StreamPresentation) throws -> [StreamSegment] {
        let segments = try #require(presentation.periods.first?.renditions.first?.segments)
        return (0 ..< (segments.count ?? 0)).compactMap { segments.segment(at: $0) }
    }

    /// RFC 8216 section 8.2, a live playlist with its media sequence number: no EXT-X-ENDLIST.
    @Test func liveMediaPlaylist() throws {
        let presentation = try read("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:8
            #EXT-X-MEDIA-SEQUENCE:2680

            #EXTINF:7.975,
            https://priv.example.com/fileSequence2680.ts
            #EXTINF:7.941,
            https://priv.example.com/fileSequence2681.ts
            #EXTINF:7.975,
            https://priv.example.com/fileSequence2682.ts
            """)
        #expect(presentation.isLive)
        let segments = try segments(presentation)
        #expect(segments.map(\.number) == [2680, 2681, 2682])
        #expect(presentation.periods[0].renditions[0].segments?.last?.resource.url == "https://priv.example.com/fileSequence2682.ts")
    }

    /// RFC 8216 section 8.3: encrypted segments.
    @Test func encryptedSegmentsMarkTheRendition() throws {
        let presentation = try read("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA-SEQUENCE:7794
            #EXT-X-TARGETDURATION:15
            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"
            #EXTINF:2.833,
            http://media.example.com/fileSequence52-A.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:15.0,
            http://media.example.com/fileSequence53-A.ts
            """)
        #expect(presentation.periods[0].renditions[0].isEncrypted)
    }

    /// RFC 8216 section 8.4 (with an I-frame stream of 8.5): a master playlist; URIs resolve against its URL.
    @Test func masterPlaylist() throws {
        let presentation = try read("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000
            http://example.com/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,AVERAGE-BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"
            mid/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000,RESOLUTION=1920x1080
            /hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
            audio-only.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="low/iframe.m3u8",RESOLUTION=640x360
            """)
        let renditions = presentation.periods[0].renditions
        #expect(renditions.map(\.content) == [
            .mediaPlaylist(url: "http://example.com/low.m3u8"),
            .mediaPlaylist(url: "https://media.example.com/stream/mid/index.m3u8"),
            .mediaPlaylist(url: "https://media.example.com/hi.m3u8"),
            .mediaPlaylist(url: "https://media.example.com/stream/audio-only.m3u8"),
            .mediaPlaylist(url: "https://media.example.com/stream/low/iframe.m3u8"),
        ])
        #expect(renditions.map(\.kind) == [.unknown, .video, .video, .audio, .video])
        #expect(renditions[1].codecs == "avc1.64001f,mp4a.40.2")
        #expect(renditions[2].width == 1920 && renditions[2].height == 1080)
        #expect(renditions.map(\.isIFrameOnly) == [false, false, false, false, true])
        #expect(presentation.duration == nil)
    }

    @Test func byteRangesContinueFromThePreviousSubRange() throws {
        let segments = try segments(try read("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:1000@720
            main.mp4
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:500
            main.mp4
            #EXT-X-ENDLIST
            """))
        #expect(segments.map(\.resource.byteRange) == [720 ..< 1_720, 1_720 ..< 2_220])
        #expect(segments[1].initialization == StreamResource(url: "https://media.example.com/stream/main.mp4", byteRange: 0 ..< 720))
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 4",
                                      "EXT-X-BYTERANGE without an offset follows no sub-range of the same resource")) {
            try read("#EXTM3U\n#EXTINF:6,\n#EXT-X-BYTERANGE:500\nmain.mp4\n")
        }
    }

    @Test func discontinuitiesDatesAndGaps() throws {
        let segments = try segments(try read("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DISCONTINUITY-SEQUENCE:3
            #EXT-X-PROGRAM-DATE-TIME:2024-02-29T12:00:00.000Z
            #EXTINF:4,
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2.5,
            b.ts
            #EXT-X-GAP
            #EXTINF:4,
            c.ts
            #EXT-X-ENDLIST
            """))
        #expect(segments.map(\.discontinuity) == [3, 4, 4])
        #expect(segments.map(\.isGap) == [false, false, true])
        let start = try #require(StreamDate(parsing: "2024-02-29T12:00:00Z")).sinceEpoch
        #expect(segments.map { $0.programDateTime?.sinceEpoch } == [start, start + .seconds(4), start + .milliseconds(6_500)])
        #expect(segments.map(\.initialization) == [nil, nil, nil])
    }

    @Test func iFramePlaylist() throws {
        let presentation = try read("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:4
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-I-FRAMES-ONLY
            #EXTINF:2.002,
            #EXT-X-BYTERANGE:12345@376
            1.ts
            #EXTINF:3.003,
            #EXT-X-BYTERANGE:9000@860000
            1.ts
            """)
        let rendition = presentation.periods[0].renditions[0]
        #expect(rendition.isIFrameOnly)
        #expect(!presentation.isLive)
        #expect(rendition.segments?.segment(containing: .milliseconds(2_500))?.resource.byteRange == 860_000 ..< 869_000)
    }

    @Test func errorsSayWhereAndWhat() {
        #expect(throws: ManifestError(.notAManifest, url: "x", "neither an HLS playlist nor a DASH manifest: it starts 'hello'")) {
            try StreamManifest.read("hello", url: "x")
        }
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 2", "segment 'a.ts' has no EXTINF")) {
            try read("#EXTM3U\na.ts\n#EXT-X-ENDLIST")
        }
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 2",
                                      "EXTINF duration 'ten' is not a number of seconds")) {
            try read("#EXTM3U\n#EXTINF:ten,\na.ts\n")
        }
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 2", "EXT-X-STREAM-INF is followed by no URI")) {
            try read("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n")
        }
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 2", "attribute URI has a quote that is not closed")) {
            try read("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\n#EXTINF:1,\na.ts\n")
        }
        #expect(throws: ManifestError(.empty, url: Self.url, "the media playlist has no segment")) {
            try read("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-ENDLIST\n")
        }
        // A range whose length does not fit an Int (a reader would trap counting it) is refused where it is read.
        #expect(throws: ManifestError(.malformed, url: Self.url, location: "line 4", "EXT-X-BYTERANGE ends past 2^63 - 1 bytes")) {
            try read("#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:18446744073709551000@0\na.ts\n")
        }
        var limits = ManifestLimits()
        limits.maximumSegments = 1
        #expect(throws: ManifestError(.limitExceeded, url: nil, location: "line 5", "more than 1 segments")) {
            try StreamManifest.read("#EXTM3U\n#EXTINF:1,\na.ts\n#EXTINF:1,\nb.ts\n", url: nil, limits: limits)
        }
        limits = ManifestLimits()
        limits.maximumTextBytes = 8
        #expect(throws: ManifestError(.limitExceeded, url: nil, "the text is longer than 8 bytes")) {
            try StreamManifest.read("#EXTM3U\n#EXT-X-ENDLIST\n", url: nil, limits: limits)
        }
    }

    @Test func lineEndingsAndByteOrderMarkAreAccepted() throws {
        let segments = try segments(try read("\u{FEFF}#EXTM3U\r\n#EXTINF:1.5,title, with comma\r\n  a.ts  \r\n#EXT-X-ENDLIST\r\n"))
        #expect(segments.map(\.resource.url) == ["https://media.example.com/stream/a.ts"])
        #expect(segments.map(\.timeRange) == [.zero ..< .milliseconds(1_500)])
    }
}
