import MP4BoxTestSupport
import Testing
@testable import TransportStream

/// The search for a time's keyframe in bare transport streams (ffmpeg's remuxes of the MP4 fixtures, as 188-byte TS,
/// 192-byte M2TS and with timestamps that wrap, and a 30 s stream with keyframes at scene cuts), against ffprobe's
/// packet list of each: the keyframes' byte positions and times.
struct TransportTimeSearchTests {
    /// The file's index from its ends (`endBytes` of each), then the search for `target` run to its end on the file's
    /// bytes: the keyframe it found, and the probes it read.
    static func search(_ bytes: [UInt8], for target: Int64, goal: TransportTimeSearch.Goal, endBytes: Int = 16 << 10,
                       probeBytes: UInt64 = 8 << 10) throws -> (keyframe: TransportTimeSearch.Point?, probes: Int, index: TransportFileIndex) {
        let tailOffset = max(endBytes, bytes.count - endBytes)
        let index = try TransportFileIndex(head: Array(bytes.prefix(endBytes)), tail: Array(bytes[min(tailOffset, bytes.count)...]),
                                           tailOffset: UInt64(min(tailOffset, bytes.count)), length: UInt64(bytes.count))
        var search = index.search(probeBytes: probeBytes)
        while let probe = search.nextProbe(for: target, goal: goal) {
            #expect(probe.upperBound <= UInt64(bytes.count) && !probe.isEmpty)
            search.receive(Array(bytes[Int(probe.lowerBound) ..< Int(probe.upperBound)]), at: probe.lowerBound)
        }
        return (search.keyframe(for: target, goal: goal), search.probes, index)
    }

    /// The keyframe ffprobe's list says a time wants: the last shown at or before it, or the nearest (the earlier of
    /// two as near).
    static func expected(_ file: TransportReferences.File, at target: Int64, goal: TransportTimeSearch.Goal) -> TransportReferences.Packet? {
        let keys = file.keyframes
        let before = keys.last { $0.pts <= target }
        guard goal == .nearest else { return before ?? keys.first }
        return keys.min { (abs($0.pts - target), $0.pts) < (abs($1.pts - target), $1.pts) }
    }

    @Test(arguments: TransportReferences.all)
    func theIndexReadsWhatFFprobeSays(_ file: TransportReferences.File) throws {
        let bytes = try file.bytes()
        let index = try Self.search(bytes, for: 0, goal: .atOrBefore).index
        #expect(index.layout.packetSize == file.packetSize)
        #expect(index.endTime == file.endTicks)
        #expect(index.video.codec.rawValue == file.coding)
    }

    @Test(arguments: TransportReferences.all)
    func everyTimeFindsFFprobesKeyframe(_ file: TransportReferences.File) throws {
        let bytes = try file.bytes()
        // Each keyframe's time, a tick either side, the midpoints between keyframes, and past both ends.
        var targets: [Int64] = [-90_000, 0, file.endTicks + 90_000]
        for (key, next) in zip(file.keyframes, file.keyframes.dropFirst() + [file.keyframes[0]]) {
            targets += [key.pts - 1, key.pts, key.pts + 1]
            if next.pts > key.pts { targets += [(key.pts + next.pts) / 2, (key.pts + next.pts) / 2 + 1] }
        }
        for target in targets {
            for goal in [TransportTimeSearch.Goal.atOrBefore, .nearest] {
                let (found, probes, _) = try Self.search(bytes, for: target, goal: goal)
                let expected = Self.expected(file, at: target, goal: goal)
                #expect(found?.offset == expected?.position, "\(file.name) at \(target) (\(goal)): \(String(describing: found))")
                #expect(found?.presentationTime == expected?.pts, "\(file.name) at \(target) (\(goal))")
                #expect(probes < TransportTimeSearch.maximumProbes, "\(file.name) at \(target) (\(goal)): \(probes) probes")
            }
        }
    }

    /// Sync bytes that recur at 188 or 192 bytes tell the layout wherever the first whole packet starts; bytes that
    /// are not packets tell none.
    @Test func theLayoutIsToldByTheContent() throws {
        for file in TransportReferences.all where file.name.hasPrefix("h264-bframes") {
            let bytes = try file.bytes()
            let told = try #require(TransportPacketLayout.detect(in: Array(bytes.prefix(4096))))
            #expect(told.layout.packetSize == file.packetSize && told.firstPacket == 0)
            let cut = try #require(TransportPacketLayout.detect(in: Array(bytes[100 ..< 4096])))
            #expect(cut.layout.packetSize == file.packetSize && cut.firstPacket == file.packetSize - 100)
        }
        #expect(TransportPacketLayout.detect(in: Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8) + [UInt8](repeating: 0x47, count: 3)) == nil)
        #expect(throws: TransportStreamError.self) {
            try TransportFileIndex(head: [UInt8](repeating: 0x20, count: 4096), tail: [], tailOffset: 4096, length: 4096)
        }
    }
}
