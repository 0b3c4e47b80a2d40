import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// Every input the fuzzers (Fuzz/) found a crash with, replayed through the same parse and lookups, with the answer
/// its construction implies (Fuzz/make-inputs.py).
@Suite struct FuzzFindingTests {
    static let findings: [String] = {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/\(name)")))
    }

    @Test func findingsArePresent() {
        #expect(!Self.findings.isEmpty)
    }

    /// Each movie finding is a moov with one video track of one sample (and only the box that matters bent): it
    /// parses, and every lookup at every time, however extreme, answers that sample (the one on screen at or after
    /// its start, and the first shown before it), without a trap.
    @Test(arguments: findings.filter { !$0.hasSuffix(".sps.bin") })
    func movieFindingParsesAndEveryLookupAnswersItsOneSample(_ name: String) throws {
        let movie = try MovieParser.parse(fileBytes: try Self.bytes(name))
        #expect(movie.tracks.count == 1)
        let track = try #require(movie.tracks.first)
        #expect(track.samples.count == 1)
        #expect(try track.samples.sample(at: 0).size == 1)
        var times: [Int64] = [-1, 0, .max, .min, track.presentationTime(seconds: track.durationSeconds / 2)]
        for seconds in [0, 1e12, .greatestFiniteMagnitude, -1e12] { times.append(track.presentationTime(seconds: seconds)) }
        for time in times {
            #expect(try track.sample(displayedAt: time)?.index == 0, "sample(displayedAt: \(time))")
            #expect(try track.syncSample(nearest: time)?.index == 0, "syncSample(nearest: \(time))")
            #expect(try track.syncSample(atOrBefore: time)?.index == 0, "syncSample(atOrBefore: \(time))")
        }
        // No sample entry parses to a picture size: none at all, or an avcC whose SPS is malformed.
        #expect(track.videoParameters == nil)
        #expect(track.durationSeconds.isFinite)
        #expect(movie.durationSeconds.isFinite)
    }

    /// An SPSFuzzer input is a selector byte (modulo 3: 0 H.264, 1 HEVC, 2 AV1) and the bytes; the one kept is an
    /// H.264 SPS with a delta_scale past the -128...127 the standard allows, which is malformed.
    @Test(arguments: findings.filter { $0.hasSuffix(".sps.bin") })
    func spsFindingIsMalformed(_ name: String) throws {
        let input = try Self.bytes(name)
        #expect(input.first.map { $0 % 3 == 0 } == true)
        let error = try #require(throws: MP4Error.self) { _ = try H264SequenceParameterSet.parse(input.dropFirst()) }
        #expect(error.code == .malformed)
    }
}
