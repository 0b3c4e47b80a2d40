import Storyboards
import Testing
import Thumbs

/// Reading WebVTT thumbnail tracks and grid templates; `tile(at:)`; errors with line numbers.
@Suite struct StoryboardTrackTests {
    static let sprite = """
        WEBVTT
        Kind: metadata

        NOTE written by hand

        1
        00:00:00.000 --> 00:00:05.000
        sprite.jpg#xywh=0,0,160,90

        00:00:05.000 --> 00:00:10.000 align:start
        sprite.jpg#xywh=pixel:160,0,160,90

        00:10.000 --> 00:15.000
        https://cdn.example/other.jpg#320,0,160,90

        00:00:20.000 --> 00:00:25.000
        ../shared/single.jpg
        """

    @Test func readsEveryReferenceForm() throws {
        let track = try StoryboardTrack(webVTT: Self.sprite)
        #expect(track.cues.count == 4)
        #expect(track.cues.map(\.timeRange.lowerBound) == [0, 5, 10, 20].map(Duration.seconds))
        #expect(track.cues.map(\.timeRange.upperBound) == [5, 10, 15, 25].map(Duration.seconds))
        #expect(track.cues[0].reference == StoryboardReference(url: "sprite.jpg", region: .init(x: 0, y: 0, width: 160, height: 90)))
        #expect(track.cues[1].reference.region == .init(x: 160, y: 0, width: 160, height: 90))
        #expect(track.cues[2].reference == StoryboardReference(url: "https://cdn.example/other.jpg",
                                                              region: .init(x: 320, y: 0, width: 160, height: 90)))
        #expect(track.cues[3].reference == StoryboardReference(url: "../shared/single.jpg", region: nil))
        #expect(track.cues.map(\.line) == [7, 10, 13, 16])
    }

    @Test func thumbnailAtPicksTheContainingCueElseBeforeElseFirst() throws {
        let track = try StoryboardTrack(webVTT: Self.sprite, baseURL: "https://media.example/videos/a/thumbs.vtt?token=1")
        #expect(track.tile(at: .zero)?.region?.x == 0)
        #expect(track.tile(at: .milliseconds(4999))?.region?.x == 0)
        #expect(track.tile(at: .nanoseconds(4_999_999_999))?.region?.x == 0)  // finer than WebVTT's milliseconds
        #expect(track.tile(at: .seconds(5))?.region?.x == 160)          // ends are exclusive
        #expect(track.tile(at: .seconds(12))?.url == "https://cdn.example/other.jpg")
        let gap = try #require(track.tile(at: .seconds(17)))               // between cues: the one before
        #expect(gap.timeRange == .seconds(10) ..< .seconds(15))
        #expect(track.tile(at: .seconds(99))?.url == "https://media.example/videos/shared/single.jpg")  // after all: the last
        #expect(track.tile(at: .seconds(-3))?.timeRange.lowerBound == .zero)                  // before all: the first
        #expect(track.tile(at: .seconds(1))?.url == "https://media.example/videos/a/sprite.jpg")
        #expect(try StoryboardTrack(webVTT: "WEBVTT\n").tile(at: .seconds(1)) == nil)
    }

    @Test func thumbnailAtTheEndsOfDuration() throws {
        // Past any Int64 count of milliseconds (the unit of the cues as written): the last cue, or the first.
        let track = try StoryboardTrack(webVTT: Self.sprite)
        #expect(track.tile(at: .seconds(Int64.max))?.timeRange.lowerBound == .seconds(20))
        #expect(track.tile(at: .seconds(Int64.min))?.timeRange.lowerBound == .zero)
        #expect(track.tile(at: .milliseconds(Int64.max))?.timeRange.lowerBound == .seconds(20))
        #expect(track.tile(at: .seconds(1e20))?.timeRange.lowerBound == .seconds(20))   // past Int64 seconds
        #expect(track.tile(at: .seconds(-1e20))?.timeRange.lowerBound == .zero)
    }

    @Test func thumbnailAtHandlesALeadingFirstCueAfterZero() throws {
        let track = try StoryboardTrack(webVTT: "WEBVTT\n\n00:00:02.000 --> 00:00:04.000\na.jpg\n")
        #expect(track.tile(at: .seconds(1))?.timeRange.lowerBound == .seconds(2))
    }

    @Test func readsCRLFAndByteOrderMark() throws {
        let text = "\u{FEFF}WEBVTT\r\n\r\n00:00:00.000 --> 00:00:01.000\r\na.png#xywh=0,0,10,10\r\n\r\n"
        let track = try StoryboardTrack(webVTT: text)
        #expect(track.cues.count == 1 && track.cues[0].reference.url == "a.png")
    }

    @Test func timestampsRoundTrip() {
        #expect(WebVTTTimestamp.format(.zero) == "00:00:00.000")
        #expect(WebVTTTimestamp.format(.milliseconds(3_723_004)) == "01:02:03.004")
        #expect(WebVTTTimestamp.format(.seconds(360_000)) == "100:00:00.000")
        #expect(WebVTTTimestamp.format(.microseconds(1_999_499)) == "00:00:01.999")  // to the nearest millisecond
        #expect(WebVTTTimestamp.format(.microseconds(1_999_500)) == "00:00:02.000")
        // Past Int64 seconds (a Duration goes to about 1.7e20 s): the most milliseconds, 2^63 - 1, not a trap.
        #expect(WebVTTTimestamp.format(.seconds(1e20)) == "2562047788015:12:55.807")
        #expect(WebVTTTimestamp.format(.seconds(-2)) == "00:00:00.000")
        for value: Int64 in [0, 1, 999, 59_999, 3_599_999, 7_200_000, 360_000_001] {
            #expect(WebVTTTimestamp.parse(WebVTTTimestamp.format(.milliseconds(value))) == .milliseconds(value))
        }
        #expect(WebVTTTimestamp.parse("01:02.003") == .milliseconds(62_003))
        for bad in ["1:02.003", "00:60.000", "00:00:00.00", "00:00:00,000", "0:00:00.000", "aa:00.000", "00:00:00.0000", ""] {
            #expect(WebVTTTimestamp.parse(bad) == nil, "\(bad)")
        }
    }

    /// Each error code, with the line it names.
    @Test(arguments: [
        ("WEBVTTX\n", StoryboardError.Code.notWebVTT, 1),
        ("<html>\n", .notWebVTT, 1),
        ("WEBVTT\n\n00:00:00.000 -> 00:00:01.000\na.jpg\n", .malformedTiming, 3),
        ("WEBVTT\n\n00:00:00.000 --> 00:00:0x.000\na.jpg\n", .malformedTiming, 3),
        ("WEBVTT\n\n00:00:02.000 --> 00:00:01.000\na.jpg\n", .malformedTiming, 3),
        ("WEBVTT\n\nid\n00:00:00.000 --> 00:00:01.000\n", .missingImage, 5),
        ("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na.jpg\n\n00:00:01.000 --> 00:00:02.000\na.jpg#xywh=0,0,0,90\n", .malformedRegion, 7),
        ("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na.jpg#xywh=percent:0,0,50,50\n", .malformedRegion, 4),
        ("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na.jpg#1,2,-3,4\n", .malformedRegion, 4),
        ("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n#xywh=0,0,10,10\n", .missingImage, 4),
    ])
    func malformedTracksThrowWithTheLine(_ text: String, _ code: StoryboardError.Code, _ line: Int) {
        #expect { try StoryboardTrack(webVTT: text) } throws: { error in
            guard let error = error as? StoryboardError else { return false }
            return error.code == code && error.line == line && error.description.hasPrefix("line \(line): ")
        }
    }

    @Test func gridTemplateAddressesTilesByIndex() throws {
        let grid = try StoryboardTrack(gridTemplate: "tiles/$index$.jpg", tileWidth: 100, tileHeight: 50, columns: 3, rows: 2,
                                       interval: .seconds(2), duration: .seconds(15), firstIndex: 0)
        #expect(grid.cues.count == 8)
        #expect(grid.cues.last?.timeRange.upperBound == .seconds(15))
        let seventh = try #require(grid.tile(at: .milliseconds(13_500)))  // tile 6: sheet 1, slot 0
        #expect(seventh.url == "tiles/1.jpg" && seventh.region == .init(x: 0, y: 0, width: 100, height: 50))
        let fifth = try #require(grid.tile(at: .seconds(9)))       // tile 4: sheet 0, column 1, row 1
        #expect(fifth.url == "tiles/0.jpg" && fifth.region == .init(x: 100, y: 50, width: 100, height: 50))
        #expect(fifth.timeRange == .seconds(8) ..< .seconds(10) && fifth.timeRange.contains(.seconds(9)))
        #expect { try StoryboardTrack(gridTemplate: "a.jpg", tileWidth: 1, tileHeight: 1, columns: 1, rows: 1,
                                      interval: .milliseconds(1), duration: .milliseconds(1)) } throws: {
            ($0 as? StoryboardError)?.code == .invalidGrid
        }
        #expect { try StoryboardTrack(gridTemplate: "$index$.jpg", tileWidth: 0, tileHeight: 1, columns: 1, rows: 1,
                                      interval: .milliseconds(1), duration: .milliseconds(1)) } throws: {
            ($0 as? StoryboardError)?.code == .invalidGrid
        }
        #expect { try StoryboardTrack(gridTemplate: "$index$.jpg", tileWidth: 1, tileHeight: 1, columns: 1, rows: 1,
                                      interval: .microseconds(499), duration: .seconds(1)) } throws: {
            ($0 as? StoryboardError)?.code == .invalidGrid   // 0 ms to the nearest millisecond, the grid's unit
        }
        #expect { try StoryboardTrack(gridTemplate: "$index$.jpg", tileWidth: 1, tileHeight: 1, columns: 1, rows: 1,
                                      interval: .seconds(1), duration: .seconds(1e20)) } throws: {
            ($0 as? StoryboardError)?.code == .invalidGrid   // past Int64 milliseconds: too many tiles, no trap
        }
    }

    @Test func gridTimesAreTheMakersNearestMillisecond() throws {
        // 2.3 s as a Double is 2.2999999999999998 s: 2,300 ms, as StoryboardPlan takes it, so 10 cues over 23 s.
        let grid = try StoryboardTrack(gridTemplate: "$index$.jpg", tileWidth: 1, tileHeight: 1, columns: 1, rows: 1,
                                       interval: .seconds(2.3), duration: .seconds(23))
        #expect(grid.cues.count == 10)
        #expect(grid.cues.last?.timeRange == .milliseconds(20_700) ..< .seconds(23))
        // A last tile whose end passes Int64 milliseconds ends at the duration (the sum trapped).
        let wide = try StoryboardTrack(gridTemplate: "$index$.jpg", tileWidth: 1, tileHeight: 1, columns: 1, rows: 1,
                                       interval: .milliseconds(5_000_000_000_000_000_000), duration: .milliseconds(Int64.max))
        #expect(wide.cues.count == 2)
        #expect(wide.cues.last?.timeRange.upperBound == .milliseconds(Int64.max))
    }

    @Test func writerOutputReadsBack() throws {
        let cues = (0..<3).map { index in
            Storyboard.Cue(timeRange: .milliseconds(1500 * index) ..< min(.milliseconds(1500 * (index + 1)), .seconds(4)), sheet: 0,
                           region: PixelRegion(x: index * 16, y: 0, width: 16, height: 9),
                           keyframeTime: MediaTime(value: Int64(index), timescale: 1), keyframeSample: index)
        }
        let storyboard = Storyboard(duration: .seconds(4), interval: .milliseconds(1500), tileSize: PixelSize(width: 16, height: 9),
                                    columns: 3, rows: 1, singleImages: false, sheetTemplate: "s-$index$.jpg", firstSheetIndex: 1,
                                    format: .jpeg(quality: 80), cues: cues,
                                    sheets: [.init(fileName: "s-1.jpg", width: 48, height: 9, tileCount: 3, byteCount: 1)],
                                    keyframeCount: 3, keyframeBytes: 0)
        let text = storyboard.webVTT()
        #expect(text == """
            WEBVTT

            00:00:00.000 --> 00:00:01.500
            s-1.jpg#xywh=0,0,16,9

            00:00:01.500 --> 00:00:03.000
            s-1.jpg#xywh=16,0,16,9

            00:00:03.000 --> 00:00:04.000
            s-1.jpg#xywh=32,0,16,9


            """)
        let track = try StoryboardTrack(webVTT: text)
        #expect(track.cues.map(\.reference.region?.x) == [0, 16, 32])
    }
}
