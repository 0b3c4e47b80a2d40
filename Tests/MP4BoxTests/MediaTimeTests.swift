import MP4Box
import Testing

/// Exact times: a `MediaTime` as a `Duration` loses nothing a `Duration` can hold.
@Suite struct MediaTimeTests {
    @Test func aRationalTimeBecomesTheSameDurationToTheAttosecond() {
        // 1001/30000 s = 0.0333666... s: 33,366,666,666,666,666 attoseconds, the last digit cut.
        #expect(MediaTime(value: 1001, timescale: 30000).duration
                == Duration(secondsComponent: 0, attosecondsComponent: 33_366_666_666_666_666))
        #expect(MediaTime(value: 6144, timescale: 12800).duration == .milliseconds(480))
        #expect(MediaTime(value: 90_000 * 3_600 + 1, timescale: 90_000).duration
                == Duration(secondsComponent: 3_600, attosecondsComponent: 11_111_111_111_111))
        // Before the start (an edit list's negative offset): toward negative infinity, -1/3 s = -1 s + 2/3 s.
        #expect(MediaTime(value: -1, timescale: 3).duration
                == Duration(secondsComponent: -1, attosecondsComponent: 666_666_666_666_666_666))
        #expect(MediaTime(value: Int64.max, timescale: 1).duration.components.seconds == Int64.max)
    }
}
