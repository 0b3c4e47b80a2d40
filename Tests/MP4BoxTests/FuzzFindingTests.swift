import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// Every input the fuzzer (Fuzz/) found a crash with, replayed through the same parse and lookups.
@Suite struct FuzzFindingTests {
    static let findings: [String] = {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    }()

    @Test func findingsArePresent() {
        #expect(!Self.findings.isEmpty)
    }

    @Test(arguments: findings)
    func findingParsesOrThrowsAndEveryLookupReturns(_ name: String) throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/\(name)")
        let bytes = [UInt8](try Data(contentsOf: url))
        let movie: Movie
        do {
            movie = try MovieParser.parse(fileBytes: bytes)
        } catch {
            return  // a typed error is a fine answer
        }
        for track in movie.tracks {
            let count = track.samples.count
            if count > 0 {
                for index in [0, count / 2, count - 1] { _ = try? track.samples.sample(at: index) }
            }
            var times: [Int64] = [-1, .max, .min, track.presentationTime(seconds: track.durationSeconds / 2)]
            for seconds in [0, 1e12, .greatestFiniteMagnitude, -1e12] { times.append(track.presentationTime(seconds: seconds)) }
            for time in times {
                _ = try? track.sample(displayedAt: time)
                _ = try? track.syncSample(nearest: time)
                _ = try? track.syncSample(atOrBefore: time)
            }
            _ = track.videoParameters
            _ = track.displaySize
            _ = track.durationSeconds
        }
    }
}
