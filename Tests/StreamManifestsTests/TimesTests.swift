@testable import StreamManifests
import Testing

/// Exact times: decimal seconds, ISO 8601 durations and dates, timescale ticks.
@Suite struct TimesTests {
    @Test func decimalSecondsAreExact() throws {
        #expect(DecimalSeconds.duration("10.010") == .milliseconds(10_010))
        #expect(DecimalSeconds.duration("6") == .seconds(6))
        #expect(DecimalSeconds.duration("0.0416667") == .nanoseconds(41_666_700))
        #expect(DecimalSeconds.duration(".5") == .milliseconds(500))
        #expect(DecimalSeconds.duration("0.000000000000000001") == Duration(secondsComponent: 0, attosecondsComponent: 1))
        #expect(DecimalSeconds.duration("-1.5", allowsNegative: true) == .milliseconds(-1_500))
        // Ten thousand segments of 0.1 s add up to exactly 1,000 s (as Doubles they do not).
        let tenth = try #require(DecimalSeconds.duration("0.1"))
        #expect((0..<10_000).reduce(Duration.zero) { sum, _ in sum + tenth } == .seconds(1_000))
        for bad in ["", ".", "1.2.3", "1e3", "-1", "0x10", " 1", "99999999999999999999"] {
            #expect(DecimalSeconds.duration(bad) == nil, "\(bad)")
        }
    }

    @Test func iso8601Durations() {
        #expect(ISO8601Duration.duration("PT1H2M3.5S") == .seconds(3_723) + .milliseconds(500))
        #expect(ISO8601Duration.duration("PT0S") == .zero)
        #expect(ISO8601Duration.duration("P1DT0.25S") == .seconds(86_400) + .milliseconds(250))
        #expect(ISO8601Duration.duration("P0Y0M0DT0H3M30.000S") == .seconds(210))
        #expect(ISO8601Duration.duration("PT0.5H") == .seconds(1_800))
        for bad in ["", "P", "PT", "1H", "PT1D", "P1H", "PT1H2", "PTS", "PT-1S", "P1DT1H1H2X"] {
            #expect(ISO8601Duration.duration(bad) == nil, "\(bad)")
        }
    }

    @Test func datesCountFromTheUnixEpoch() throws {
        // Seconds since the epoch from POSIX's definition (date -u -d ... +%s).
        #expect(StreamDate(parsing: "1970-01-01T00:00:00Z")?.sinceEpoch == .zero)
        #expect(StreamDate(parsing: "2000-01-01T00:00:00Z")?.sinceEpoch == .seconds(946_684_800))
        #expect(StreamDate(parsing: "2024-02-29T12:34:56.789Z")?.sinceEpoch == .seconds(1_709_210_096) + .milliseconds(789))
        #expect(StreamDate(parsing: "2024-02-29T14:34:56.789+02:00")?.sinceEpoch == .seconds(1_709_210_096) + .milliseconds(789))
        #expect(StreamDate(parsing: "2024-02-29T12:34:56.789-0130")?.sinceEpoch == .seconds(1_709_215_496) + .milliseconds(789))
        #expect(StreamDate(parsing: "1969-12-31T23:59:59Z")?.sinceEpoch == .seconds(-1))
        #expect(StreamDate(parsing: "2024-09-23")?.sinceEpoch == .seconds(1_727_049_600))
        let offsetDate = StreamDate(parsing: "2024-02-29T14:34:56.789+02:00")
        #expect(offsetDate != nil && offsetDate == StreamDate(parsing: "2024-02-29T12:34:56.789Z"))
        for bad in ["", "2024", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00Q", "2024-01-01T00:00:00.Z"] {
            #expect(StreamDate(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func ticksConvertBothWays() {
        #expect(Duration.ticks(90_000, timescale: 90_000) == .seconds(1))
        #expect(Duration.ticks(1_001, timescale: 30_000) == .nanoseconds(33_366_666) + Duration(secondsComponent: 0, attosecondsComponent: 666_666_666))
        #expect(Duration.ticks(-1, timescale: 2) == .milliseconds(-500))
        #expect(Duration.ticks(1, timescale: 0) == nil)
        #expect(Duration.seconds(1).ticks(timescale: 90_000) == 90_000)
        #expect(Duration.milliseconds(-500).ticks(timescale: 3) == -2)
        #expect(Duration.milliseconds(1_001).ticks(timescale: 1_000) == 1_001)
        #expect(Duration.seconds(Int64.max).ticks(timescale: 2) == nil)
    }
}
