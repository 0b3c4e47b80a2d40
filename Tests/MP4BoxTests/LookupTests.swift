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
        let track = try #require(try await MovieLocator().locate(in: try FileByteSource(path: Fixtures.path(name))).movie.primaryVideoTrack)
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
        let track = try #require(try await MovieLocator().locate(in: try FileByteSource(path: Fixtures.path(name))).movie.primaryVideoTrack)
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
}
