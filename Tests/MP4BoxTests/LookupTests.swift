import MP4Box
import MP4BoxTestSupport
import Testing

/// Time lookups against answers computed from ffprobe's packet lists.
@Suite struct LookupTests {
    /// Times to probe: every packet's pts, halfway between, before the start and after the end.
    static func probeTimes(_ packets: [FixtureExpectation.Packet]) -> [Int64] {
        let pts = packets.map(\.pts).sorted()
        var times = pts + zip(pts, pts.dropFirst()).map { ($0 + $1) / 2 }
        times += [-100_000, (pts.last ?? 0) + 100_000]
        return times
    }

    @Test(arguments: Fixtures.videoNames)
    func frameOnScreenIsTheLastPacketAtOrBeforeTheTime(_ name: String) async throws {
        let expected = try Fixtures.expectation(name)
        let track = try #require(try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes(name))).movie.primaryVideoTrack)
        let firstShown = try #require(expected.packets.min { $0.pts < $1.pts })
        for time in Self.probeTimes(expected.packets) {
            let answer = expected.packets.filter { $0.pts <= time }.max { $0.pts < $1.pts } ?? firstShown
            let sample = try #require(try track.sample(displayedAt: time))
            #expect(sample.offset == answer.pos, "\(name) at \(time)")
        }
    }

    @Test(arguments: Fixtures.videoNames)
    func nearestSyncSampleIsTheNearestKeyPacket(_ name: String) async throws {
        let expected = try Fixtures.expectation(name)
        let track = try #require(try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes(name))).movie.primaryVideoTrack)
        let keys = expected.packets.filter(\.key)
        for time in Self.probeTimes(expected.packets) {
            // Nearest by presentation time; the earlier on a tie.
            let answer = try #require(keys.min { lhs, rhs in
                let l = abs(lhs.pts - time), r = abs(rhs.pts - time)
                return l != r ? l < r : lhs.pts < rhs.pts
            })
            let sample = try #require(try track.syncSample(nearest: time))
            #expect(sample.offset == answer.pos, "\(name) nearest key at \(time)")
            // The sync sample at or before: the last key packet with pts <= time, else the first.
            let before = keys.filter { $0.pts <= time }.max { $0.pts < $1.pts } ?? keys.min { $0.pts < $1.pts }
            #expect(try track.syncSample(atOrBefore: time)?.offset == before?.pos, "\(name) key at or before \(time)")
        }
    }

    @Test(arguments: [(2.0166666666666666, 60), (2.0, 60), (1.9999999999, 60), (2.0333333333333333, 61), (0.0, 0), (0.0333, 0)])
    func secondsBecomeTheUnitThatContainsThem(_ seconds: Double, _ units: Int64) throws {
        // A 30-units-a-second track (as Media3's muxer writes): mid-frame times belong to the frame that started.
        var movie = SyntheticMovie()
        movie.timescale = 30
        movie.durations = Array(repeating: 1, count: movie.sampleSizes.count)
        let track = try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
        #expect(track.presentationTime(seconds: seconds) == units)
    }

    @Test func sixDecimalTimesMeanTheFrameThatStartsWithinAMicrosecond() throws {
        // 29.97 frames a second at 30000 units: frame n starts at 1001n / 30000 s. Its start printed with six
        // decimals, cut (0.033366 for 0.0333667) or rounded (0.033367), is that frame; a microsecond and a half
        // before the start is still the frame before.
        var movie = SyntheticMovie()
        movie.timescale = 30000
        movie.durations = Array(repeating: 1001, count: movie.sampleSizes.count)
        let track = try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
        for frame in 1..<movie.sampleSizes.count {
            let start = Double(1001 * frame) / 30000
            let cut = (start * 1e6).rounded(.down) / 1e6
            let rounded = (start * 1e6).rounded() / 1e6
            #expect(track.presentationTime(seconds: cut) == Int64(1001 * frame), "\(cut)")
            #expect(track.presentationTime(seconds: rounded) == Int64(1001 * frame), "\(rounded)")
            #expect(track.presentationTime(seconds: start - 1.5e-6) < Int64(1001 * frame), "\(start - 1.5e-6)")
        }
    }
}
